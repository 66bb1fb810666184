import type { Clock } from '../../core/clock/index.ts';
import { closedProblem } from '../../core/rulebook/problems.ts';
import { replacementName, type ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { ClientExemption, ExemptionStore, UsageStore } from '../../kernel/ports/index.ts';
import type { LifecycleState } from './runtime-state.ts';
import { endpointSubject, type VerdictKey } from './runtime-verdict.ts';

/** How long a "never called it" answer is trusted before the usage store is asked again. */
const recheckMs = 5_000;

/** Options of {@link createClientAccess}. */
export interface ClientAccessOptions {
  exemptions?: Pick<ExemptionStore, 'list'> | undefined;
  usage?: Pick<UsageStore, 'calledBefore'> | undefined;
  clock: Clock;
}

/**
 * Per-client lifecycle decisions, kept in memory per instance: the active exemptions by subject
 * (reloaded on a change through the change feed) and, per (client, subject), whether the client
 * had called a subject before it closed to new clients. A "yes" never changes; a "no" is asked
 * again after a few seconds, so a fresh usage flush lets a client in without a query per request.
 */
export function createClientAccess(options: ClientAccessOptions) {
  const { clock } = options;
  // subject (`v1`, `v1 GET /users/{id}`) → client → its latest date.
  let bySubject = new Map<string, Map<string, number>>();
  const known = new Map<string, { called: boolean; checkedAt: number }>();
  // Moves each time a load changes the exemptions: what is derived from them is stale then.
  let stamp = 0;
  let loaded = '';

  const closings = (state: LifecycleState, key: VerdictKey) => {
    const found: Array<{ at: number; endpoint?: string }> = [];
    const own = state.schedule(key.version)?.closedToNewClientsAt;
    if (own !== undefined) found.push({ at: own });
    for (const e of state.endpoints())
      if (e.version === key.version && e.method === key.method && e.path === key.path)
        if (e.closedToNewClientsAt !== undefined)
          found.push({ at: e.closedToNewClientsAt, endpoint: e.method + ' ' + e.path });
    return found;
  };

  const calledBefore = async (
    clientId: string,
    version: string,
    closing: { at: number; endpoint?: string; element?: string },
  ) => {
    const id = `${clientId}\n${version}\n${closing.endpoint ?? ''}\n${closing.element ?? ''}\n${closing.at}`;
    const hit = known.get(id);
    if (hit && (hit.called || clock.now() - hit.checkedAt < recheckMs)) return hit.called;
    const called =
      options.usage !== undefined &&
      (await options.usage.calledBefore({
        clientId,
        version,
        ...(closing.endpoint ? { endpoint: closing.endpoint } : {}),
        ...(closing.element ? { element: closing.element } : {}),
        before: closing.at,
      }));
    known.set(id, { called, checkedAt: clock.now() });
    return called;
  };

  /** The client's own date for a subject, within the cap; undefined without an exemption or cap. */
  const extension = (clientId: string, subject: string, cap: number | undefined): number | undefined => {
    const until = bySubject.get(subject)?.get(clientId);
    return until === undefined || cap === undefined ? undefined : Math.min(until, cap);
  };

  return {
    /** Reload the active exemptions (at start, and on every change of the `exemptions` topic). */
    async load(): Promise<void> {
      if (!options.exemptions) return;
      bySubject = indexExemptions(await options.exemptions.list());
      const text = JSON.stringify([...bySubject].map(([subject, clients]) => [subject, [...clients]]));
      if (text !== loaded) stamp++;
      loaded = text;
    },
    /**
     * Whether a key's shared verdict has per-client rules: an exemption for its version or
     * endpoint (an exempt client sees its own `Sunset` from the grant on), or, before the removal,
     * a closing date. Every other key is answered by the shared verdict alone.
     */
    touches(state: LifecycleState, key: VerdictKey, removed: boolean): boolean {
      if (bySubject.has(key.version) || bySubject.has(endpointSubject(key))) return true;
      return !removed && closings(state, key).length > 0;
    },
    /** Moves each time a load changes the exemptions. */
    stamp: () => stamp,
    /** The clients holding an active exemption for a subject (`v1`, `v1 GET /users/{id}`). */
    exemptClients: (subject: string): string[] => [...(bySubject.get(subject)?.keys() ?? [])],
    /** The client's own date for a subject, within the cap; undefined without an exemption or cap. */
    extensionOf: extension,
    /**
     * Whether a deprecated element used by a request has per-client rules now: past its sunset,
     * an exemption for it; from its closing date, the closing. One Map lookup at most.
     */
    elementTouches(e: ElementDeprecation, now: number): boolean {
      if (now > e.sunsetAt) return bySubject.has(elementSubject(e));
      return e.closedToNewClientsAt !== undefined && now >= e.closedToNewClientsAt;
    },
    /**
     * The elements as this client sees them: past the sunset, an exempt one with its own date as
     * its sunset (within the cap); before it, a closed one refused with the 403 problem when the
     * client had not used it before the closing. The others as they are.
     */
    async clientElements(o: {
      used: readonly ElementDeprecation[];
      clientId: string | undefined;
      guideOf: (e: ElementDeprecation) => string;
    }): Promise<readonly ElementDeprecation[]> {
      const { clientId } = o;
      const now = clock.now();
      const own: ElementDeprecation[] = [];
      for (const e of o.used) {
        if (now > e.sunsetAt) {
          const until =
            clientId === undefined ? undefined : extension(clientId, elementSubject(e), e.extendedAccessUntil);
          own.push(until !== undefined && now <= until ? { ...e, sunsetAt: until } : e);
          continue;
        }
        const at = e.closedToNewClientsAt;
        if (at !== undefined && now >= at) {
          const closing = { at, element: e.element };
          if (clientId === undefined || !(await calledBefore(clientId, e.version, closing)))
            throw closedProblem({
              what: `${e.element} in ${e.version}`,
              at,
              replacement: replacementName(e),
              guide: o.guideOf(e),
            });
        }
        own.push(e);
      }
      return own;
    },
  };
}

function indexExemptions(list: readonly ClientExemption[]): Map<string, Map<string, number>> {
  const index = new Map<string, Map<string, number>>();
  for (const e of list) {
    const subject =
      e.subject.kind === 'version'
        ? e.subject.version
        : e.subject.kind === 'element'
          ? elementSubject(e.subject)
          : endpointSubject(e.subject);
    const clients = index.get(subject) ?? new Map<string, number>();
    clients.set(e.clientId, Math.max(clients.get(e.clientId) ?? 0, e.until));
    index.set(subject, clients);
  }
  return index;
}

/** An element's key among the exemptions: its version and its name (`v2 element User.nickname`). */
function elementSubject(e: { version: string; element: string }): string {
  return `${e.version} element ${e.element}`;
}
