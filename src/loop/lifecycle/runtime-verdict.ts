import type { Clock } from '../../core/clock/index.ts';
import {
  evaluateVerdict,
  type DeprecationSchedule,
  type LifecycleVerdict,
  type VerdictCandidate,
} from '../../core/lifecycle/index.ts';
import type { EndpointDeprecation, StoredSchedule } from '../../kernel/ports/index.ts';
import { toSchedule, usable, type LifecycleState } from './runtime-state.ts';
import type { LifecycleSettings } from './settings.ts';

export interface VerdictKey {
  version: string;
  method: string;
  path: string;
}

/** The verdict of one key, and until when it holds: the removed candidate or the nearest sunset wins. */
export function computeVerdict(
  state: LifecycleState,
  key: VerdictKey,
  context: {
    clock: Clock;
    prefix: string;
    settings: LifecycleSettings;
    manifestLink: string;
    /** One client's own date past a subject's sunset, given its cap; absent for the shared verdict. */
    extension?: (subject: string, cap: number | undefined) => number | undefined;
  },
): { verdict: LifecycleVerdict; until: number } {
  const candidates: VerdictCandidate[] = [];
  const extended = (subject: string, schedule: DeprecationSchedule, cap: number | undefined) => {
    const until = context.extension?.(subject, cap);
    // An extension only ever adds time: a date before the public sunset leaves the public one.
    return until === undefined || until <= schedule.sunsetAt
      ? schedule
      : { ...schedule, sunsetAt: until, removed: false };
  };
  const own = state.schedule(key.version);
  if (own)
    candidates.push({
      schedule: extended(key.version, toSchedule(own), own.extendedAccessUntil),
      migrationUrl: state.migrationUrl(key.version),
    });
  for (const e of endpointsOf(state.endpoints(), key)) {
    const schedule: DeprecationSchedule = {
      version: key.version,
      deprecatedAt: e.deprecatedAt,
      sunsetAt: e.sunsetAt,
      removed: false,
      reason: 'planned',
    };
    candidates.push({
      schedule: extended(endpointSubject(key), schedule, e.extendedAccessUntil),
      migrationUrl: usable(e.migrationUrl) ?? state.migrationUrl(key.version),
      subject: `${e.method} ${e.path} in ${key.version}`,
    });
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

/** The subject key of an endpoint, as grants name it: `v1 GET /users/{id}`. */
export function endpointSubject(key: VerdictKey): string {
  return `${key.version} ${key.method} ${key.path}`;
}

export function endpointsOf(endpoints: readonly EndpointDeprecation[], key: VerdictKey): EndpointDeprecation[] {
  return endpoints.filter((e) => e.version === key.version && e.method === key.method && e.path === key.path);
}

/** A key's closings to new clients: its version's, and its endpoint's (`endpoint`: `GET /users`). */
export function closingsOf(
  schedule: StoredSchedule | undefined,
  endpoints: readonly EndpointDeprecation[],
  key: VerdictKey,
): Array<{ at: number; endpoint?: string }> {
  const found: Array<{ at: number; endpoint?: string }> = [];
  if (schedule?.closedToNewClientsAt !== undefined) found.push({ at: schedule.closedToNewClientsAt });
  for (const e of endpointsOf(endpoints, key))
    if (e.closedToNewClientsAt !== undefined)
      found.push({ at: e.closedToNewClientsAt, endpoint: `${e.method} ${e.path}` });
  return found;
}
