import { cappedUntil, type ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { ExtendedAccessStore, ExtendedAccessSubject } from '../../kernel/ports/index.ts';
import { endpointSubject, type VerdictKey } from './runtime-verdict.ts';

/** The active grants by subject, per instance: which keys have per-client rules, and each client's own date. */
export function createClientAccess(options: { grants?: Pick<ExtendedAccessStore, 'list'> | undefined }) {
  // subject (`v1`, `v1 GET /users/{id}`) → client → its latest date.
  let bySubject = new Map<string, Map<string, number>>();
  // Moves each time a load changes the grants: what is derived from them is stale then.
  let stamp = 0;
  let loaded = '';

  return {
    /** At start, and on every change of the `extended-access` topic. */
    async load(): Promise<void> {
      if (!options.grants) return;
      const index = new Map<string, Map<string, number>>();
      for (const e of await options.grants.list()) {
        const clients = index.get(subjectKey(e.subject)) ?? new Map<string, number>();
        clients.set(e.clientId, Math.max(clients.get(e.clientId) ?? 0, e.until));
        index.set(subjectKey(e.subject), clients);
      }
      bySubject = index;
      const text = JSON.stringify([...bySubject].map(([subject, clients]) => [subject, [...clients]]));
      if (text !== loaded) stamp++;
      loaded = text;
    },
    /** Whether a key's version or endpoint has a grant. */
    granted: (key: VerdictKey): boolean => bySubject.has(key.version) || bySubject.has(endpointSubject(key)),
    stamp: () => stamp,
    /** The clients with a grant for a subject, each with its latest date (uncapped), in the order granted. */
    grantsOf: (s: ExtendedAccessSubject): ReadonlyMap<string, number> => bySubject.get(subjectKey(s)) ?? noGrants,
    extensionOf: (clientId: string, subject: string, cap: number | undefined): number | undefined =>
      cappedUntil(bySubject.get(subject)?.get(clientId), cap),
    /** Whether an element used has per-client rules now: past its sunset a grant, from its closing date the closing. */
    elementTouches(e: ElementDeprecation, now: number): boolean {
      if (now > e.sunsetAt) return bySubject.has(elementSubject(e));
      return e.closedToNewClientsAt !== undefined && now >= e.closedToNewClientsAt;
    },
  };
}

const noGrants: ReadonlyMap<string, number> = new Map();

function subjectKey(s: ExtendedAccessSubject): string {
  return s.kind === 'version' ? s.version : s.kind === 'element' ? elementSubject(s) : endpointSubject(s);
}

function elementSubject(e: { version: string; element: string }): string {
  return `${e.version} element ${e.element}`;
}
