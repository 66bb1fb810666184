/**
 * What a notice announces: the five kinds the schedule plans, and the two that answer an owner's
 * decision on a client's request for extended access (`granted`, `declined`).
 */
export type NoticeKind = (typeof noticeKinds)[number];

/** Every kind, in the order a subject's life shows them. */
export const noticeKinds = ['deprecated', 'reminder', 'brownout', 'removed', 'cleared', 'granted', 'declined'] as const;

/** A kind sent on an owner's decision, never planned from usage: the schedule ignores these rows. */
export const isDecisionKind = (kind: NoticeKind): kind is 'granted' | 'declined' =>
  kind === 'granted' || kind === 'declined';

/** A deprecated version, or one deprecated endpoint of a version, with its dates. */
export interface NoticeSubject {
  version: string;
  /** Method and route template (`GET /users/{id}`); absent for the whole version. */
  endpoint?: string;
  /** A deprecated field or query parameter of the version (`User.nickname`, `GET /users?order`); absent otherwise. */
  element?: string;
  deprecatedAt: number;
  sunsetAt: number;
  /** Flagged removed before (or at) its sunset. */
  removed: boolean;
}

/**
 * A planned window in which a subject answers as if removed. A rehearsal names the one client
 * it applies to.
 */
export interface Brownout {
  id: string;
  version: string;
  endpoint?: string;
  startsAt: number;
  endsAt: number;
  /** Set for a rehearsal: only this client's calls are refused. */
  clientId?: string;
  /**
   * Set for a targeted brownout: only these clients' calls are refused, and only they are told.
   * Absent: every client (and unauthenticated calls).
   */
  clients?: readonly string[];
  /** How `clients` was chosen, when from usage: the clients that called the subject in this many days. */
  calledWithinDays?: number;
}

/** One client's calls to one endpoint of one version within the lookback window. */
export interface ClientUsage {
  clientId: string;
  version: string;
  endpoint: string;
  /** Set on a row of calls that used this deprecated element: they count for its subject only. */
  element?: string;
  calls: number;
  firstSeen: number;
  lastSeen: number;
}

/**
 * The identity of a notice: due at most once per (client, subject, kind, step, sunset date).
 * `step` tells reminders (`90d`, `30d`…) and brownouts (their id) apart; it is empty otherwise.
 */
export interface NoticeIdentity {
  clientId: string;
  /** {@link subjectId} of the subject. */
  subject: string;
  kind: NoticeKind;
  step: string;
  sunsetAt: number;
}

/** A notice already planned (whatever its delivery state): `plannedAt` is when it was planned. */
export interface RecordedNotice extends NoticeIdentity {
  plannedAt: number;
}

/** A notice now due, with what a message needs to say. */
export interface DueNotice extends RecordedNotice, Pick<NoticeSubject, 'version' | 'endpoint' | 'element'> {
  /** Whole days from now to the sunset, never negative. */
  daysLeft: number;
  /** The announced window, for a `brownout` notice. */
  brownout?: Brownout;
}

/** Tunables of the schedule, with defaults in {@link defaultNoticeSettings}. */
export interface NoticeSettings {
  /** Days before the sunset at which a reminder is due. */
  reminderDays: number[];
  /** Days without a call after which a told client is clear. */
  clearDays: number;
  /** Only calls this recent target a notice. */
  lookbackDays: number;
  /** How long before a brownout starts it is announced. */
  brownoutNoticeDays: number;
}

/** The defaults: reminders 90, 30, 7 and 1 days out; clear after 14 quiet days; 90 days of usage. */
export const defaultNoticeSettings: Readonly<NoticeSettings> = Object.freeze({
  reminderDays: [90, 30, 7, 1],
  clearDays: 14,
  lookbackDays: 90,
  brownoutNoticeDays: 7,
});
