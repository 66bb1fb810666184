import type { LifecycleState } from './runtime-state.ts';
import type { VerdictKey } from './runtime-verdict.ts';

/**
 * Whether a key has no lifecycle in the state: no schedule of its version and no deprecation of
 * its endpoint. Its verdict is then "not deprecated" with no end (no candidate to weigh), it has
 * no closing to new clients and no grant to honour, so the lifecycle step has nothing to do
 * on its route until the state changes (the generation moves, and the pipeline compiles again).
 */
export function unscheduled(state: LifecycleState, key: VerdictKey): boolean {
  if (state.schedule(key.version) !== undefined) return false;
  for (const e of state.endpoints())
    if (e.version === key.version && e.method === key.method && e.path === key.path) return false;
  return true;
}
