import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { OperationCount, UsageCall } from '../../kernel/ports/index.ts';
import type { UsageLogLine } from './usage-log-format.ts';

/** The client a call without credentials counts for: nginx's line names no address to count it by. */
const anonymousClient = 'anonymous';

/** What one line of the usage log adds to usage: nothing, or the gateway's rows for the same call. */
export type LineUsage =
  | { kind: 'counted'; calls: UsageCall[]; count?: OperationCount }
  | { kind: 'skipped'; reason: string }
  | { kind: 'malformed'; reason: string };

/** What the control plane judges a line against: the versions' operations and the lifecycle. */
export interface LineJudge {
  bundle: VersionBundle;
  verdict(key: { version: string; method: string; path: string }): LifecycleVerdict;
}

// Refusals: the key check, a role or a closing to new clients, a removal or brownout, the rate
// limit. A refused call is not usage: the gateway records none for them either.
const refusals = new Set(['401', '403', '410', '429']);
const fields = ['ts', 'rid', 'version', 'operation', 'method', 'client', 'status', 'deprecated'] as const;

/** One line of the log (without its newline), parsed and checked; a string says why it is not a line of the format. */
export function parseUsageLine(text: string): UsageLogLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  for (const field of fields) if (typeof record[field] !== 'string') return `"${field}" is missing or not a string`;
  const line = record as unknown as UsageLogLine;
  if (!/^\d{1,12}(\.\d{1,6})?$/.test(line.ts)) return '"ts" is not seconds such as 1764259200.123';
  if (!/^\d{3}$/.test(line.status)) return '"status" is not an HTTP status';
  if (!/^[A-Z]{1,20}$/.test(line.method)) return '"method" is not an HTTP method';
  return line;
}

/**
 * The usage rows the gateway writes for the call a line tells of, so that usage read from nginx's
 * log is the same as the Node gateway's for the same calls: every call that reached an operation
 * counted per operation and client; a call to a deprecated version or endpoint recorded; and one
 * row per deprecated element used. A refusal (401, 403, 410, 429, a removal answered 404) is not usage.
 * The lifecycle is judged when the line is read (a line is read within a second of the call, unless
 * the control plane was down).
 */
export function usageOfLine(line: UsageLogLine, judge: LineJudge): LineUsage {
  if (refusals.has(line.status)) return { kind: 'skipped', reason: `refused with ${line.status}` };
  const version = judge.bundle.get(line.version);
  // HEAD is served by a GET operation, as Fastify routes it.
  const method = line.method === 'HEAD' ? 'GET' : line.method;
  if (!version?.operations.some((op) => op.method === method && op.path === line.operation))
    return { kind: 'skipped', reason: 'no operation of a known version' };
  const at = Math.round(Number(line.ts) * 1000);
  const endpoint = `${method} ${line.operation}`;
  const clientId = line.client === '' ? anonymousClient : line.client;
  const verdict = judge.verdict({ version: line.version, method, path: line.operation });
  const base = { version: line.version, endpoint, clientId, at };
  // Refused as removed with `removedStatus: 404`: a refusal, as a 410 is.
  if (verdict.removed && line.status === '404') return { kind: 'skipped', reason: 'refused as removed' };
  const calls: UsageCall[] = verdict.deprecated || verdict.removed ? [base] : [];
  for (const element of line.deprecated.split(',')) {
    const name = element.trim();
    if (name !== '') calls.push({ ...base, element: name });
  }
  return {
    kind: 'counted',
    calls,
    count: { hour: at, version: line.version, endpoint, clientId, calls: 1, lastSeen: at },
  };
}
