export { noticeKinds, defaultNoticeSettings, isDecisionKind } from './types.ts';
export type {
  NoticeKind,
  NoticeSubject,
  Brownout,
  RecordedNotice,
  DueNotice,
  NoticeIdentity,
  NoticeSettings,
} from './types.ts';
export { subjectId, subjectParts } from './notice-key.ts';
export { dueNotice, planNotices } from './plan-notices.ts';

export { checkBrownout, defaultScheduleSteps, scheduleWindows } from './brownout-schedule.ts';
export { eventType, impactOnCalls, toNoticePayload } from './payload.ts';
export type { CallEvidence, ExtendedAccessDecisionFacts, NoticePayload } from './payload.ts';
