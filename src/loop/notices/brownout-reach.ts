import type { Brownout } from '../../core/notices/index.ts';
import { ruleMethod, type RouteDescription } from '../../http/pipeline/route-description.ts';

/**
 * Whether a brownout among `brownouts` could ever refuse a call of this route: one of its version,
 * for the whole version or this endpoint (`GET /users/{id}`), whatever its window and whichever
 * clients it aims at. The brownout step is compiled only into such routes; the others never pay
 * for it. The answer changes only with the set of brownouts ({@link brownoutReachKey}).
 */
export function brownoutCanReach(brownouts: readonly Brownout[], route: RouteDescription): boolean {
  if (route.version === undefined) return false;
  // A HEAD route is reached by a brownout of GET (`ruleMethod`).
  const endpoint = `${ruleMethod(route.method)} ${route.template}`;
  return brownouts.some((b) => b.version === route.version && (b.endpoint === undefined || b.endpoint === endpoint));
}

/** What {@link brownoutCanReach} reads of a set of brownouts: a refresh that keeps it changes no route. */
export function brownoutReachKey(brownouts: readonly Brownout[]): string {
  return [...new Set(brownouts.map((b) => `${b.version} ${b.endpoint ?? '*'}`))].sort().join('\n');
}
