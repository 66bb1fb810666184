import { isMigrationUrl } from '../../core/text/index.ts';
import { deprecationDatesOf, type DeprecationSchedule } from '../../core/lifecycle/index.ts';
import type { EndpointDeprecation, StoredSchedule } from '../../kernel/ports/index.ts';

export interface VerdictKey {
  version: string;
  method: string;
  path: string;
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

export function toSchedule(s: StoredSchedule): DeprecationSchedule {
  return {
    version: s.version,
    deprecatedAt: s.deprecatedAt,
    sunsetAt: s.sunsetAt,
    removed: s.removed,
    reason: s.reason,
    ...deprecationDatesOf(s),
  };
}

// A URL stored before the migration URL rule was enforced (`javascript:`, `//host`) is never linked.
export function usable(url: string | null | undefined): string | undefined {
  return url && isMigrationUrl(url) ? url : undefined;
}
