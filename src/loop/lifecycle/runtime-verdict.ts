import type { Clock } from '../../core/clock/index.ts';
import { evaluateVerdict, type LifecycleVerdict, type VerdictCandidate } from '../../core/lifecycle/index.ts';
import type { LifecycleState } from './runtime-state.ts';
import { toSchedule, usable } from './runtime-state.ts';
import type { LifecycleSettings } from './settings.ts';

/** A request's key: the version it asked for and the operation it reached. */
export interface VerdictKey {
  version: string;
  method: string;
  path: string;
}

/**
 * The verdict of one key from the state as it is, and until when it holds: the version's own
 * schedule and any deprecation of this endpoint compete, the removed one or the nearest sunset
 * wins. Reads the state only.
 */
export function computeVerdict(
  state: LifecycleState,
  key: VerdictKey,
  context: { clock: Clock; prefix: string; settings: LifecycleSettings; manifestLink: string },
): { verdict: LifecycleVerdict; until: number } {
  const candidates: VerdictCandidate[] = [];
  const own = state.schedule(key.version);
  if (own) candidates.push({ schedule: toSchedule(own), migrationUrl: state.migrationUrl(key.version) });
  for (const e of state.endpoints()) {
    if (e.version === key.version && e.method === key.method && e.path === key.path) {
      candidates.push({
        schedule: {
          version: key.version,
          deprecatedAt: e.deprecatedAt,
          sunsetAt: e.sunsetAt,
          removed: false,
          reason: 'planned',
        },
        migrationUrl: usable(e.migrationUrl) ?? state.migrationUrl(key.version),
        subject: `${e.method} ${e.path} in ${key.version}`,
      });
    }
  }
  const replacement = state.replacementOf(key.version);
  const evaluated = evaluateVerdict({
    version: key.version,
    candidates,
    clock: context.clock,
    prefix: context.prefix,
    style: context.settings.headerStyle,
    removedStatus: context.settings.removedStatus,
    ...(replacement ? { replacement } : {}),
  });
  // The deprecation manifest, after the guide: a client that takes the first `rel="deprecation"`
  // still gets the guide. Computed with the verdict, which is cached: no work per request.
  const { headers } = evaluated.verdict;
  if (headers.Link !== undefined) headers.Link = `${headers.Link}, ${context.manifestLink}`;
  return evaluated;
}
