import { formatIsoInstant } from '../time/index.ts';
import type { Brownout } from './types.ts';

/** One step of a progressive brownout schedule: how long before the sunset it starts, how long it lasts. */
export interface ScheduleStep {
  /** `30d`, `2w`, `12h` or `90m`. */
  before: string;
  /** The same units: `1h`, `4h`, `24h`. */
  duration: string;
}

/** The default progression: an hour a month before the sunset, four hours two weeks before, a day a week before. */
export const defaultScheduleSteps: readonly ScheduleStep[] = Object.freeze([
  { before: '30d', duration: '1h' },
  { before: '14d', duration: '4h' },
  { before: '7d', duration: '24h' },
]);

const unitMs: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A span such as `30d`, `4h`, `90m` or `2w` in milliseconds; undefined when it is not one (or is 0).
 * @internal exported for the tests
 */
export function parseSpan(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(text);
  return match ? Number(match[1]) * unitMs[match[2]!]! : undefined;
}

/** A window the schedule would plan, or the problems of its step (pointer relative to the step). */
export type ScheduledWindow =
  { startsAt: number; endsAt: number; problems: [] } | { problems: Array<{ pointer: string; detail: string }> };

/**
 * The windows of a progressive schedule counted back from `sunsetAt`, each checked: well formed,
 * not started already, ending by the sunset, overlapping neither another step nor an existing
 * window (`taken`). Pure; the caller plans them only when no step has a problem.
 */
export function scheduleWindows(options: {
  sunsetAt: number;
  steps: readonly ScheduleStep[];
  now: number;
  taken: ReadonlyArray<{ startsAt: number; endsAt: number }>;
}): ScheduledWindow[] {
  const planned: Array<{ startsAt: number; endsAt: number }> = [];
  return options.steps.map((step) => {
    const before = parseSpan(step.before);
    const duration = parseSpan(step.duration);
    const problems: Array<{ pointer: string; detail: string }> = [];
    if (before === undefined) problems.push({ pointer: '/before', detail: 'a span such as 30d, 2w, 12h or 90m' });
    if (duration === undefined) problems.push({ pointer: '/duration', detail: 'a span such as 1h, 4h, 24h or 2d' });
    if (before === undefined || duration === undefined) return { problems };
    const startsAt = options.sunsetAt - before;
    const endsAt = startsAt + duration;
    const at = formatIsoInstant(startsAt);
    if (startsAt <= options.now)
      problems.push({ pointer: '/before', detail: `the window would start in the past (${at})` });
    if (endsAt > options.sunsetAt)
      problems.push({ pointer: '/duration', detail: 'the window would end after the sunset' });
    const overlap = [...options.taken, ...planned].find((w) => startsAt < w.endsAt && w.startsAt < endsAt);
    if (overlap)
      problems.push({
        pointer: '',
        detail: `the window from ${at} overlaps the brownout from ${formatIsoInstant(overlap.startsAt)}`,
      });
    planned.push({ startsAt, endsAt });
    return problems.length > 0 ? { problems } : { startsAt, endsAt, problems: [] };
  });
}

/**
 * Problems with a planned brownout: its window must be ordered, and it must fall inside the
 * subject's sunset window (after the deprecation, before the removal). Empty when it is sound.
 */
export function checkBrownout(options: {
  brownout: Pick<Brownout, 'startsAt' | 'endsAt'>;
  deprecatedAt: number;
  sunsetAt: number;
}): string[] {
  const { brownout: b } = options;
  const problems: string[] = [];
  if (!(b.endsAt > b.startsAt)) problems.push('a brownout must end after it starts');
  if (b.startsAt < options.deprecatedAt) problems.push('a brownout cannot start before the deprecation');
  if (b.endsAt > options.sunsetAt)
    problems.push('a brownout must end by the sunset date: after it the subject is removed for good');
  return problems;
}

/** Whether a brownout refuses (and is announced to) this client: every client, or one it targets. */
export function targetsClient(brownout: Brownout, clientId: string): boolean {
  return brownout.clients === undefined || brownout.clients.includes(clientId);
}
