export { noticeKinds, defaultNoticeSettings } from './types.ts';
export type {
  NoticeKind,
  NoticeSubject,
  Brownout,
  ClientUsage,
  NoticeIdentity,
  RecordedNotice,
  DueNotice,
  NoticeSettings,
} from './types.ts';
export { subjectId, subjectParts, noticeKey, covers } from './notice-key.ts';
export { planNotices } from './plan-notices.ts';
export type { PlanNoticesOptions } from './plan-notices.ts';
export { activeBrownout, checkBrownout } from './brownout.ts';
export { eventType, impactOnCalls, toNoticePayload } from './payload.ts';
export type { CallEvidence, CallImpact, NoticeElement, NoticePayload } from './payload.ts';
