import { Type, type Static } from '@sinclair/typebox';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { OperationCount, UsageCall } from '../../kernel/ports/index.ts';

/** One counter nginx sent: the calls of a client to an operation in one minute, with one status. */
const UsageEntrySchema = Type.Object(
  {
    /** The client id the key check answered; empty when the call was not authenticated. */
    client: Type.String({ maxLength: 512 }),
    version: Type.String({ minLength: 1, maxLength: 64 }),
    method: Type.String({ pattern: '^[A-Z]{1,20}$' }),
    /** The operation's route template below the version, `/users/{id}`. */
    operation: Type.String({ minLength: 1, maxLength: 2048 }),
    /** Minutes since the epoch, on the rules' clock (the control plane's). */
    minute: Type.Integer({ minimum: 0, maximum: 2 ** 31 }),
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    /** The deprecated elements the calls used, comma-separated (`GET /users?page`); empty when none. */
    deprecated: Type.String({ maxLength: 4096 }),
    calls: Type.Integer({ minimum: 1, maximum: 1e9 }),
  },
  { additionalProperties: false },
);

export type UsageEntry = Static<typeof UsageEntrySchema>;

/** What nginx posts each second: its instance (one per start, kept across reloads), the batch's number in it, the counters. */
export const UsageBatchSchema = Type.Object(
  {
    instance: Type.String({ pattern: '^[0-9a-zA-Z.-]{1,100}$' }),
    seq: Type.Integer({ minimum: 1 }),
    entries: Type.Array(UsageEntrySchema, { maxItems: 100_000 }),
  },
  { additionalProperties: false },
);

export type UsageBatch = Static<typeof UsageBatchSchema>;

/** The client a call without credentials counts for: nginx names no address to count it by. */
const anonymousClient = 'anonymous';

/** What the control plane judges a counter against: the versions' operations and the lifecycle. */
export interface EntryJudge {
  bundle: VersionBundle;
  verdict(key: { version: string; method: string; path: string }): LifecycleVerdict;
}

// Refusals: the key check, a role or a closing to new clients, a removal or brownout, the rate
// limit. A refused call is not usage: the gateway records none for them either.
const refusals = new Set([401, 403, 410, 429]);

/**
 * The usage rows the Node gateway would write for the calls a counter tells of. A refusal is not
 * usage. The lifecycle is judged when the batch arrives (within a second of the calls, unless the
 * control plane was down).
 */
export function usageOfEntry(entry: UsageEntry, judge: EntryJudge): { calls: UsageCall[]; count?: OperationCount } {
  if (refusals.has(entry.status)) return { calls: [] };
  const version = judge.bundle.get(entry.version);
  // HEAD is served by a GET operation, as Fastify routes it.
  const method = entry.method === 'HEAD' ? 'GET' : entry.method;
  if (!version?.operations.some((op) => op.method === method && op.path === entry.operation)) return { calls: [] };
  const verdict = judge.verdict({ version: entry.version, method, path: entry.operation });
  // Refused as removed with `removedStatus: 404`: a refusal, as a 410 is.
  if (verdict.removed && entry.status === 404) return { calls: [] };
  const at = entry.minute * 60_000;
  const endpoint = `${method} ${entry.operation}`;
  const clientId = entry.client === '' ? anonymousClient : entry.client;
  const base = { version: entry.version, endpoint, clientId, at };
  const one: UsageCall[] = verdict.deprecated || verdict.removed ? [base] : [];
  for (const element of entry.deprecated.split(',')) {
    const name = element.trim();
    if (name !== '') one.push({ ...base, element: name });
  }
  const calls: UsageCall[] = [];
  if (one.length > 0) for (let i = 0; i < entry.calls; i++) calls.push(...one);
  return {
    calls,
    count: { hour: at, version: entry.version, endpoint, clientId, calls: entry.calls, lastSeen: at },
  };
}
