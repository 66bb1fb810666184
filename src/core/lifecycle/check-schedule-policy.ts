import { VersionaryError } from '../errors/index.ts';
import { checkBreakingSpacing } from './breaking-spacing.ts';
import { stateAt, transition } from './lifecycle-state.ts';
import type { LifecycleVersion, Audience, DeprecationSchedule } from './schedule.ts';
import type { PolicyReport } from './policy-report.ts';
import { checkReplacementExists, checkVersionKnown } from './replacement-rule.ts';
import { checkConcreteSunset, checkNoticePeriod, checkSunsetOrder } from './schedule-rules.ts';

interface CheckSchedulePolicyOptions {
  /** The schedule to check (new or stored). */
  schedule: DeprecationSchedule;
  /** Every published version, with their current schedules. */
  versions: readonly LifecycleVersion[];
  /** Defaults to `public`. */
  audience?: Audience;
  replacement?: string;
  /** A new scheduling call's instant: notice counts from here, and the state must allow it. */
  announcedAt?: number;
  /** False when the sunset came from a default notice period rather than the caller. */
  sunsetNamed?: boolean;
  /** The spec's scheduling (a notice period, no dates) announces anew, so a deprecated version may take it. */
  announcedAnew?: boolean;
}

/** Every lifecycle rule on one schedule, all violations and warnings at once; never throws or adjusts. */
export function checkSchedulePolicy(options: CheckSchedulePolicyOptions): PolicyReport {
  const { schedule, versions } = options;
  const version = schedule.version;
  const found = [
    checkVersionKnown({ version, versions }),
    options.announcedAt === undefined ? undefined : checkTransition({ ...options, announcedAt: options.announcedAt }),
    checkSunsetOrder(schedule),
    checkConcreteSunset({ schedule, sunsetNamed: options.sunsetNamed }),
    checkNoticePeriod({ schedule, audience: options.audience ?? 'public', announcedAt: options.announcedAt }),
    checkReplacementExists({ version, versions, replacement: options.replacement }),
  ];
  return {
    violations: found.filter((v): v is VersionaryError => v !== undefined),
    warnings: checkBreakingSpacing(versions),
  };
}

function checkTransition(options: CheckSchedulePolicyOptions & { announcedAt: number }): VersionaryError | undefined {
  const current = options.versions.find((v) => v.name === options.schedule.version);
  if (!current) return undefined;
  const state = stateAt({ schedule: current.schedule, clock: { now: () => options.announcedAt } });
  if (options.announcedAnew && (state === 'deprecated' || state === 'sunset_window')) return undefined;
  try {
    transition(state, options.schedule.reason === 'critical-fix' ? 'critical-fix' : 'schedule-deprecation');
    return undefined;
  } catch (error) {
    if (state !== 'deprecated' && state !== 'sunset_window') return error as VersionaryError;
    const refused = error as VersionaryError;
    return new VersionaryError({
      code: refused.code,
      detail: `${refused.detail} To move its dates, use rescheduleDeprecation.`,
      extensions: refused.extensions,
    });
  }
}
