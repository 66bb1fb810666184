import type { Clock } from '../clock/index.ts';
import { DAY_MS } from '../lifecycle/index.ts';
import { targetsClient } from './brownout-schedule.ts';
import { covers, noticeKey, subjectId } from './notice-key.ts';
import {
  defaultNoticeSettings,
  isDecisionKind,
  type Brownout,
  type ClientUsage,
  type DueNotice,
  type NoticeKind,
  type NoticeSettings,
  type NoticeSubject,
  type RecordedNotice,
} from './types.ts';

export interface PlanNoticesOptions {
  subjects: readonly NoticeSubject[];
  brownouts: readonly Brownout[];
  /** Per-client usage rows; rows older than the lookback window are ignored. */
  usage: readonly ClientUsage[];
  /** Every notice planned before, whatever became of its delivery. */
  recorded: readonly RecordedNotice[];
  settings?: Partial<NoticeSettings>;
  clock: Clock;
  /**
   * A client's own date for a version or endpoint (its extended access, within the cap), if any:
   * its notices are then dated by it, and it hears of no brownout of that subject (it is spared them).
   */
  extensionOf?: (clientId: string, subject: NoticeSubject) => number | undefined;
}

/**
 * The notices due now. Each is due once per (client, subject, kind, step, sunset date) and only
 * to clients that called the subject within the lookback window:
 * - `deprecated` to every such client not told yet (late joiners included);
 * - `reminder` at the latest reminder day crossed since the client was last told, so overdue
 *   reminders collapse into one; a moved sunset is a new date, with reminders of its own;
 * - `brownout` when a brownout of every client, or one aimed at this client, is within its notice days;
 * - `removed` once the subject is gone;
 * - `cleared` to a told client silent for `clearDays` (since its last call and since it was told);
 *   it gets nothing more until it calls again.
 */
export function planNotices(options: PlanNoticesOptions): DueNotice[] {
  const settings = { ...defaultNoticeSettings, ...options.settings };
  const now = options.clock.now();
  const since = now - settings.lookbackDays * DAY_MS;
  const done = new Set(options.recorded.map(noticeKey));
  const due: DueNotice[] = [];
  const endpointSubjects = new Set(options.subjects.filter((s) => s.endpoint).map(subjectId));
  const scope = { endpointSubjects, usage: options.usage, since };
  for (const subject of options.subjects) {
    const id = subjectId(subject);
    // A decision's notice (granted, declined) says nothing of what the schedule told the client.
    const history = options.recorded.filter((r) => r.subject === id && !isDecisionKind(r.kind));
    for (const [clientId, lastSeen] of lastCallByClient(options.usage, subject, since)) {
      const told = history.filter((r) => r.clientId === clientId);
      const own = subject.element === undefined ? options.extensionOf?.(clientId, subject) : undefined;
      const brownouts =
        own !== undefined ? [] : options.brownouts.filter((b) => announces(b, subject, { ...scope, clientId }));
      // Extended access: the client's own date is its sunset, and the general removal is not its own.
      const dated = own === undefined ? subject : { ...subject, sunsetAt: own, removed: false };
      const planned = planForClient({ subject: dated, clientId, lastSeen, told, brownouts, settings, now });
      for (const notice of planned) {
        if (done.has(noticeKey(notice))) continue;
        done.add(noticeKey(notice));
        due.push(notice);
      }
    }
  }
  return due;
}

/** A notice of `kind` about `subject` to a client, planned `now`. */
export function dueNotice(options: {
  subject: Pick<NoticeSubject, 'version' | 'endpoint' | 'element' | 'sunsetAt'>;
  clientId: string;
  kind: NoticeKind;
  step: string;
  now: number;
  brownout?: Brownout;
}): DueNotice {
  const { subject, now, brownout } = options;
  return {
    clientId: options.clientId,
    subject: subjectId(subject),
    kind: options.kind,
    step: options.step,
    sunsetAt: subject.sunsetAt,
    version: subject.version,
    ...(subject.endpoint ? { endpoint: subject.endpoint } : {}),
    ...(subject.element ? { element: subject.element } : {}),
    plannedAt: now,
    daysLeft: Math.max(0, Math.ceil((subject.sunsetAt - now) / DAY_MS)),
    ...(brownout ? { brownout } : {}),
  };
}

function lastCallByClient(usage: readonly ClientUsage[], subject: NoticeSubject, since: number): Map<string, number> {
  const last = new Map<string, number>();
  for (const row of usage) {
    if (row.calls <= 0 || row.lastSeen < since || !covers(subject, row)) continue;
    last.set(row.clientId, Math.max(last.get(row.clientId) ?? row.lastSeen, row.lastSeen));
  }
  return last;
}

interface ClientPlan {
  subject: NoticeSubject;
  clientId: string;
  lastSeen: number;
  told: RecordedNotice[];
  brownouts: readonly Brownout[];
  settings: NoticeSettings;
  now: number;
}

function planForClient(p: ClientPlan): DueNotice[] {
  const { subject, now, told } = p;
  const make = (kind: NoticeKind, step = '', brownout?: Brownout): DueNotice =>
    dueNotice({ subject, clientId: p.clientId, kind, step, now, brownout });
  const warnings = told.filter((r) => r.kind !== 'cleared');
  const cleared = latest(told.filter((r) => r.kind === 'cleared'));
  // Cleared and silent since: the client has moved on, and hears no more of this subject.
  if (cleared !== undefined && p.lastSeen <= cleared) return [];
  const removed = subject.removed || now > subject.sunsetAt;
  if (removed) return [make('removed')];
  if (!told.some((r) => r.kind === 'deprecated')) return [make('deprecated')];
  const quiet = p.settings.clearDays * DAY_MS;
  const lastWarned = latest(warnings) ?? now;
  if (now - p.lastSeen >= quiet && now - lastWarned >= quiet) return [make('cleared')];
  if (now - p.lastSeen >= quiet) return [];
  const out: DueNotice[] = [];
  const reminder = latestCrossedReminder(subject.sunsetAt, p.settings.reminderDays, now);
  if (reminder) {
    const toldForThisDate = latest(warnings.filter((r) => r.sunsetAt === subject.sunsetAt));
    if (toldForThisDate === undefined || toldForThisDate < reminder.at) out.push(make('reminder', `${reminder.days}d`));
  }
  for (const b of p.brownouts) {
    if (now >= b.startsAt - p.settings.brownoutNoticeDays * DAY_MS && now < b.endsAt)
      out.push(make('brownout', b.id, b));
  }
  return out;
}

/**
 * Whether a brownout is announced under this subject: a global window of the subject itself, or,
 * under a deprecated version, a window of one of its endpoints that is not a deprecation of its
 * own, to the clients that call that endpoint. Rehearsals are asked for by the client itself.
 */
function announces(
  b: Brownout,
  subject: NoticeSubject,
  scope: { clientId: string; endpointSubjects: ReadonlySet<string>; usage: readonly ClientUsage[]; since: number },
): boolean {
  // A field or parameter has no brownout of its own: a window of its version is that version's news.
  if (subject.element !== undefined) return false;
  if (b.clientId !== undefined || b.version !== subject.version) return false;
  // A targeted brownout is news to its targets alone.
  if (!targetsClient(b, scope.clientId)) return false;
  if (b.endpoint === subject.endpoint) return true;
  return (
    subject.endpoint === undefined &&
    b.endpoint !== undefined &&
    !scope.endpointSubjects.has(subjectId(b)) &&
    // The client calls that endpoint (not only its elements) within the lookback window.
    scope.usage.some(
      (u) =>
        u.clientId === scope.clientId &&
        u.version === b.version &&
        u.endpoint === b.endpoint &&
        u.element === undefined &&
        u.lastSeen >= scope.since,
    )
  );
}

/** The smallest reminder day whose instant has passed: the only reminder worth sending now. */
function latestCrossedReminder(
  sunsetAt: number,
  days: number[],
  now: number,
): { days: number; at: number } | undefined {
  const crossed = days.filter((d) => d > 0 && now >= sunsetAt - d * DAY_MS).sort((a, b) => a - b);
  const d = crossed[0];
  return d === undefined ? undefined : { days: d, at: sunsetAt - d * DAY_MS };
}

function latest(notices: RecordedNotice[]): number | undefined {
  return notices.length === 0 ? undefined : Math.max(...notices.map((r) => r.plannedAt));
}
