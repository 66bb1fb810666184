import type { Clock } from '../clock/index.ts';
import { ErrorCode, VersionaryError } from '../errors/index.ts';
import type { DeprecationSchedule } from './schedule.ts';

/** The lifecycle states of a version, as in the spec's "Version lifecycle" table. */
export type LifecycleState = 'active' | 'deprecated' | 'sunset_window' | 'removed';

/** What may move a version: an operator action, a critical fix, a client request or a date passing. */
export type LifecycleEvent =
  'schedule-deprecation' | 'critical-fix' | 'client-request' | 'deprecation-date-passed' | 'sunset-date-passed';

interface LifecycleTransition {
  from: LifecycleState;
  event: LifecycleEvent;
  to: LifecycleState;
}

/**
 * The allowed transitions, row for row from the spec, plus a client request leaving every state
 * as it is. Anything not listed is refused by {@link transition}.
 * @internal exported for the tests
 */
export const lifecycleTransitions: readonly LifecycleTransition[] = [
  { from: 'active', event: 'schedule-deprecation', to: 'deprecated' },
  { from: 'active', event: 'critical-fix', to: 'deprecated' },
  { from: 'active', event: 'client-request', to: 'active' },
  { from: 'deprecated', event: 'client-request', to: 'deprecated' },
  { from: 'deprecated', event: 'deprecation-date-passed', to: 'sunset_window' },
  { from: 'sunset_window', event: 'client-request', to: 'sunset_window' },
  { from: 'sunset_window', event: 'sunset-date-passed', to: 'removed' },
  { from: 'removed', event: 'client-request', to: 'removed' },
];

/** The state after `event`; throws `INVALID_SCHEDULE` for a move the lifecycle does not allow. */
export function transition(state: LifecycleState, event: LifecycleEvent): LifecycleState {
  const row = lifecycleTransitions.find((candidate) => candidate.from === state && candidate.event === event);
  if (!row) {
    const allowed = lifecycleTransitions.filter((candidate) => candidate.from === state).map((c) => c.event);
    throw new VersionaryError({
      code: ErrorCode.InvalidSchedule,
      detail: `lifecycle-transition: '${event}' cannot happen to a version in state '${state}'; allowed: ${allowed.join(', ')}.`,
      extensions: { rule: 'lifecycle-transition', state, event, allowed },
    });
  }
  return row.to;
}

interface StateAtOptions {
  /** The version's deprecation, or `undefined` when none is registered. */
  schedule: DeprecationSchedule | undefined;
  clock: Clock;
}

/** The lifecycle state now; a date passes strictly after its instant (at the sunset, still in the window). */
export function stateAt(options: StateAtOptions): LifecycleState {
  const { schedule } = options;
  if (!schedule) return 'active';
  const now = options.clock.now();
  if (schedule.removed || now > schedule.sunsetAt) return 'removed';
  if (now > schedule.deprecatedAt) return 'sunset_window';
  return 'deprecated';
}
