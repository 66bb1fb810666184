import { parsePointer } from './json-pointer.ts';
import type { Change } from './types.ts';

/** Calls of one (version, operation, client) over the window, with what the gate says of the client. */
export interface GateUsageRow {
  version: string;
  /** `METHOD /template` without the API prefix or version: `GET /users/{id}`. */
  endpoint: string;
  clientId: string;
  /** null for calls without a registered client. */
  clientName: string | null;
  /** The client has an email or webhook that notices reach. */
  contact: boolean;
  calls: number;
  /** Milliseconds since the epoch. */
  lastSeen: number;
}

/** A recorded decision to ship a change although it breaks someone. */
export interface GateApproval {
  fingerprint: string;
  reason: string;
  approvedBy: string;
  approvedAt?: number;
  /** Milliseconds since the epoch; null or absent: no expiry. */
  expiresAt?: number | null;
}

/** A change accepted in a file kept beside the code (`--waivers`). */
export interface GateWaiver {
  fingerprint: string;
  reason: string;
  /** Milliseconds since the epoch; absent: no expiry. */
  expires?: number;
}

/** Who must have called for a client to count as hurt: a number of calls, or a share of the operations' calls. */
export type GateThreshold = { calls: number } | { percent: number };

interface AffectedClient {
  id: string;
  name: string | null;
  /** Calls in the window to the operations the change reaches. */
  calls: number;
  lastSeen: number;
  contact: boolean;
}

/** What decided an `approved` change. */
type Acceptance =
  | { kind: 'approval'; by: string; reason: string; at?: number; expiresAt: number | null }
  | { kind: 'waiver'; reason: string; expiresAt: number | null };

/** One breaking or risk change, judged. */
export interface JudgedChange {
  change: Change;
  fingerprint: string;
  status: 'broken' | 'unaffected' | 'approved';
  /** `METHOD /path` as in the document. */
  operations: string[];
  /** Clients at or over the threshold, most calls first. */
  clients: AffectedClient[];
  /** Excluded clients that would otherwise count. */
  excluded: AffectedClient[];
  /** Present when `status` is `approved`. */
  acceptedBy?: Acceptance;
  /** Waivers and approvals of this fingerprint that expired: they no longer count. */
  expired: Acceptance[];
  /** Without usage the change is judged as reaching everyone (`broken` unless accepted). */
  usageKnown: boolean;
  /**
   * Usage rows read for what the change reaches, from every client (excluded and under the
   * threshold too): 0 means the gate judged it on silence, and every report says so.
   */
  rowsRead: number;
  /** Operations the change reaches (`METHOD /path` as in the document) with no usage row in the window. */
  unseen: string[];
}

export interface JudgeOptions {
  changes: readonly Change[];
  /** The window's usage; undefined when no usage source was given (every change counts as hurting). */
  usage?: readonly GateUsageRow[];
  /** The version the changes are judged for: the base document's `info.version`. */
  version: string;
  /** The API prefix before `/<version>` in the documents' paths (`/api`); '' or absent for none. */
  prefix?: string;
  /** Default `{ calls: 1 }`. */
  threshold?: GateThreshold;
  excludeClients?: readonly string[];
  approvals?: readonly GateApproval[];
  waivers?: readonly GateWaiver[];
  /** The instant expiries are judged against. */
  now: number;
}

/**
 * Judge each breaking and risk change by who called what it reaches: `broken` when a client at or
 * over the threshold (and not excluded) called an operation it reaches, `approved` when an
 * unexpired approval or waiver names its fingerprint, else `unaffected`. A change that reaches no
 * known operation outside a component (the document as a whole), or names fewer operations than
 * reach it, is judged by every call to the version.
 */
export function judgeChanges(options: JudgeOptions): JudgedChange[] {
  const rows = (options.usage ?? []).filter((r) => r.version === options.version);
  const byEndpoint = new Map<string, GateUsageRow[]>();
  for (const row of rows) {
    const key = endpointKey(row.endpoint);
    byEndpoint.set(key, [...(byEndpoint.get(key) ?? []), row]);
  }
  const excluded = new Set(options.excludeClients ?? []);
  return options.changes
    .filter((c) => c.level !== 'compatible')
    .map((change) => {
      const operations = operationsReached(change);
      const rowsOf = (op: string) => byEndpoint.get(endpointKey(toUsageEndpoint(op, options))) ?? [];
      const reached = reachesWholeVersion(change, operations) ? rows : operations.flatMap(rowsOf);
      const clients = affectedClients(reached, options.threshold ?? { calls: 1 });
      const fingerprint = fingerprintOf(change);
      const { accepted, expired } = acceptanceOf(fingerprint, options);
      const hurt = clients.filter((c) => !excluded.has(c.id));
      const usageKnown = options.usage !== undefined;
      const status = accepted ? 'approved' : hurt.length > 0 || !usageKnown ? 'broken' : 'unaffected';
      return {
        change,
        fingerprint,
        status,
        operations,
        clients: hurt,
        excluded: clients.filter((c) => excluded.has(c.id)),
        ...(accepted ? { acceptedBy: accepted } : {}),
        expired,
        usageKnown,
        rowsRead: usageKnown ? reached.length : 0,
        unseen: usageKnown ? operations.filter((op) => rowsOf(op).length === 0) : [],
      };
    });
}

/**
 * `GET /api/v2/users/{id}` of a document as the usage names it: `GET /users/{id}`.
 *
 * @internal exported for the tests
 */
export function toUsageEndpoint(operation: string, options: { version: string; prefix?: string }): string {
  const space = operation.indexOf(' ');
  const method = operation.slice(0, space);
  const path = operation.slice(space + 1);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  for (const lead of [`${prefix}/${options.version}`, `/${options.version}`]) {
    if (path === lead) return `${method} /`;
    if (path.startsWith(`${lead}/`)) return `${method} ${path.slice(lead.length)}`;
  }
  return `${method} ${path}`;
}

// Parameter names may differ between a document and the recorded template (`{id}`, `{userId}`).
const endpointKey = (endpoint: string) => endpoint.replace(/\{[^}]*\}/g, '{}');

function reachesWholeVersion(change: Change, operations: string[]): boolean {
  const { operationCount, pointer } = change.location;
  if (operationCount !== undefined && operationCount > operations.length) return true;
  // A component no operation reaches hurts nobody; a change to the document as a whole hurts everyone.
  return operations.length === 0 && !pointer.startsWith('/components/');
}

function affectedClients(rows: readonly GateUsageRow[], threshold: GateThreshold): AffectedClient[] {
  const byClient = new Map<string, AffectedClient>();
  let total = 0;
  for (const row of rows) {
    total += row.calls;
    const seen = byClient.get(row.clientId);
    if (seen === undefined) {
      byClient.set(row.clientId, {
        id: row.clientId,
        name: row.clientName,
        calls: row.calls,
        lastSeen: row.lastSeen,
        contact: row.contact,
      });
    } else {
      seen.calls += row.calls;
      seen.lastSeen = Math.max(seen.lastSeen, row.lastSeen);
    }
  }
  const counts = (c: AffectedClient) =>
    c.calls > 0 && ('calls' in threshold ? c.calls >= threshold.calls : (c.calls / total) * 100 >= threshold.percent);
  return [...byClient.values()].filter(counts).sort((a, b) => b.calls - a.calls || a.id.localeCompare(b.id));
}

function acceptanceOf(
  fingerprint: string,
  options: JudgeOptions,
): { accepted: Acceptance | undefined; expired: Acceptance[] } {
  const all: Acceptance[] = [
    ...(options.approvals ?? [])
      .filter((a) => a.fingerprint === fingerprint)
      .map((a): Acceptance => ({
        kind: 'approval',
        by: a.approvedBy,
        reason: a.reason,
        ...(a.approvedAt === undefined ? {} : { at: a.approvedAt }),
        expiresAt: a.expiresAt ?? null,
      })),
    ...(options.waivers ?? [])
      .filter((w) => w.fingerprint === fingerprint)
      .map((w): Acceptance => ({ kind: 'waiver', reason: w.reason, expiresAt: w.expires ?? null })),
  ];
  const live = (a: Acceptance) => a.expiresAt === null || a.expiresAt > options.now;
  return { accepted: all.find(live), expired: all.filter((a) => !live(a)) };
}

/**
 * A path without what only names the API and its version: everything up to and including the
 * first version segment (`v2`, `v1.1`, `2024-10-01`). `/api/v2/users/{id}` and `/v1/users/{id}`
 * both give `/users/{id}`; a path without a version segment is kept as written.
 */
function withoutVersionPrefix(path: string): string {
  const segments = path.split('/');
  const at = segments.findIndex((s) => /^v\d+(?:\.\d+)*$/i.test(s) || /^\d{4}-\d{2}-\d{2}$/.test(s));
  return at < 0 ? path : `/${segments.slice(at + 1).join('/')}`;
}

/**
 * The operations a change reaches, `METHOD /path` as the document writes them: the operation it
 * sits in, else every operation that reaches the component it sits in (an empty list when none is
 * known, as for a change to the document as a whole).
 */
export function operationsReached(change: Change): string[] {
  const { method, path, operations, via } = change.location;
  if (method !== undefined && path !== undefined) return [`${method} ${path}`];
  return operations ?? (via === undefined ? [] : [via]);
}

/**
 * A short, stable name for a change (16 hex digits), for approvals and waivers: the same change
 * gets the same fingerprint on every run and commit. It hashes the rule, the place (the JSON
 * pointer, with the path's prefix and version segment removed and array positions dropped, so
 * `/api/v1` and `/api/v2` documents agree and an unrelated parameter added before it moves
 * nothing) and the old and new values when they are plain values (a type, a field name). The
 * operations a shared schema reaches are left out: another operation starting to use the schema
 * is not a different change.
 * @internal exported for the tests
 */
export function fingerprintOf(change: Change): string {
  const { pointer, document } = change.location;
  const tokens = parsePointer(pointer)
    .map((token, i, all) => (i === 1 && all[0] === 'paths' ? withoutVersionPrefix(token) : token))
    .filter((token) => !/^\d+$/.test(token));
  const file = document === undefined ? '' : (document.split(/[\\/]/).at(-1) ?? '');
  const parts = [change.id, file, ...tokens, plain(change.oldValue), plain(change.newValue)];
  return fnv1a64(parts.join('\u0000'));
}

/** A value as text when it is a plain value (or a list of them); anything bigger is left out. */
function plain(value: unknown): string {
  const isPlain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return isPlain(value) || (Array.isArray(value) && value.every(isPlain)) ? JSON.stringify(value) : '';
}

/** 64-bit FNV-1a over UTF-8, as 16 hex digits: core hashes without node:crypto, and needs no secrecy. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}
