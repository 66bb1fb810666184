import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
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

  const calledBefore = async (clientId: string, key: VerdictKey, closing: { at: number; endpoint?: string }) => {
    const id = `${clientId}\n${key.version}\n${closing.endpoint ?? ''}\n${closing.at}`;
    const hit = known.get(id);
    if (hit && (hit.called || clock.now() - hit.checkedAt < recheckMs)) return hit.called;
    const called =
      options.usage !== undefined &&
      (await options.usage.calledBefore({
        clientId,
        version: key.version,
        ...(closing.endpoint ? { endpoint: closing.endpoint } : {}),
        before: closing.at,
      }));
    known.set(id, { called, checkedAt: clock.now() });
    return called;
  };

  return {
    /** Reload the active exemptions (at start, and on every change of the `exemptions` topic). */
    async load(): Promise<void> {
      if (!options.exemptions) return;
      bySubject = indexExemptions(await options.exemptions.list());
    },
    /** Whether a key has per-client rules: an exemption for its version or endpoint, or a closing date. */
    touches(state: LifecycleState, key: VerdictKey): boolean {
      return bySubject.has(key.version) || bySubject.has(endpointSubject(key)) || closings(state, key).length > 0;
    },
    /** The client's own date for a subject, within the cap; undefined without an exemption or cap. */
    extensionOf(clientId: string, subject: string, cap: number | undefined): number | undefined {
      const until = bySubject.get(subject)?.get(clientId);
      return until === undefined || cap === undefined ? undefined : Math.min(until, cap);
    },
    /** Rejects with the 403 problem when a closing is in effect and the client had not called the subject before it. */
    async assertNotClosed(o: {
      state: LifecycleState;
      key: VerdictKey;
      clientId: string | undefined;
      verdict: LifecycleVerdict;
    }): Promise<void> {
      const { state, key, clientId, verdict } = o;
      const now = clock.now();
      for (const closing of closings(state, key)) {
        if (now < closing.at) continue;
        if (clientId !== undefined && (await calledBefore(clientId, key, closing))) continue;
        throw closedError({
          what: closing.endpoint ? `${closing.endpoint} in ${key.version}` : key.version,
          closing,
          verdict,
          guide: state.migrationUrl(key.version),
        });
      }
    },
  };
}

function indexExemptions(list: readonly ClientExemption[]): Map<string, Map<string, number>> {
  const index = new Map<string, Map<string, number>>();
  for (const e of list) {
    if (e.subject.kind === 'element') continue;
    const subject = e.subject.kind === 'version' ? e.subject.version : endpointSubject(e.subject);
    const clients = index.get(subject) ?? new Map<string, number>();
    clients.set(e.clientId, Math.max(clients.get(e.clientId) ?? 0, e.until));
    index.set(subject, clients);
  }
  return index;
}

function closedError(o: {
  what: string;
  closing: { at: number };
  verdict: LifecycleVerdict;
  guide: string;
}): VersionaryError {
  const replacement = o.verdict.replacement;
  const move = replacement
    ? ` Use ${replacement} instead; the migration guide is at ${o.guide}.`
    : ` The migration guide is at ${o.guide}.`;
  return new VersionaryError({
    code: ErrorCode.ClosedToNewClients,
    detail: `${o.what} is closed to new clients since ${formatIsoInstant(o.closing.at)}, and this client had not called it before.${move}`,
    extensions: {
      replacement: replacement ?? null,
      migrationGuide: o.guide,
      closedToNewClientsAt: formatIsoInstant(o.closing.at),
    },
  });
}
