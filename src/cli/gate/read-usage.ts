import type { GateApproval, GateUsageRow } from '../../core/compat/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/time/index.ts';

/** The usage source could not be read: the gate must not pass on silence (exit 2). */
export class GateSourceError extends Error {
  override name = 'GateSourceError';
}

/** A `--api-version` or `--exclude-client` the service does not know: a usage error (exit 2). */
export class UnknownGateInput extends Error {
  constructor(
    readonly kind: 'version' | 'client',
    readonly value: string,
    /** The service's own words (`No version named "v9". Versions: v1, v2.`), when it gave them. */
    readonly detail: unknown,
  ) {
    super(`unknown ${kind} ${value}`);
    this.name = 'UnknownGateInput';
  }
}

/** What the gate reads from a running service. */
export interface GateSource {
  usage: GateUsageRow[];
  approvals: GateApproval[];
  /** The API prefix the served documents put before `/<version>`. */
  prefix: string;
  since: number;
  until: number;
}

/**
 * Read the usage per (version, operation, client) of the window and the approvals in force from
 * `/admin/v1` of a running service. Any failure (unreachable, refused, not the expected JSON) is a
 * {@link GateSourceError}.
 */
export async function readGateSource(options: {
  server: string;
  key: string;
  since: number;
  until: number;
  version: string;
  /** Client ids the gate is told to leave out: each must be a client, or have calls in the window. */
  excludeClients?: readonly string[];
}): Promise<GateSource> {
  const base = options.server.replace(/\/+$/, '');
  /** GET a path of the management API; a 404 of what `unknown` names is an {@link UnknownGateInput}. */
  const get = async (path: string, unknown?: [UnknownGateInput['kind'], string]): Promise<unknown> => {
    const url = `${base}/admin/v1${path}`;
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${options.key}`, accept: 'application/json' },
    }).catch((error: Error) => {
      throw new GateSourceError(
        `cannot reach ${base}: ${(error.cause as Error | undefined)?.message ?? error.message}`,
      );
    });
    const body = safeJson(await res.text());
    const detail = (body as { detail?: string } | null | undefined)?.detail;
    if (res.status === 404 && unknown) throw new UnknownGateInput(...unknown, detail);
    if (!res.ok) {
      const why =
        res.status === 401 || res.status === 403
          ? 'the key was refused (it needs the admin role)'
          : res.status === 404
            ? 'the service has no such route (a Versionary service with usage per operation?)'
            : 'the service answered an error';
      throw new GateSourceError(`GET ${url} answered ${res.status}: ${why}${detail ? `: ${detail}` : ''}`);
    }
    if (body === undefined) throw new GateSourceError(`GET ${url} did not answer JSON`);
    return body;
  };
  const query = new URLSearchParams({
    since: formatIsoInstant(options.since),
    until: formatIsoInstant(options.until),
    version: options.version,
  });
  const usage = await get(`/usage/operations?${query}`);
  // A version the service does not serve has no usage row, and every change would pass as
  // Unaffected: refuse it instead of judging on silence.
  await get(`/versions/${encodeURIComponent(options.version)}`, ['version', options.version]);
  const rows = toUsageRows(usage);
  for (const id of options.excludeClients ?? [])
    if (!rows.some((r) => r.clientId === id)) await get(`/clients/${encodeURIComponent(id)}`, ['client', id]);
  const approvals = await get('/approvals');
  return {
    usage: rows,
    approvals: toApprovals(approvals),
    prefix: readPrefix(usage),
    since: options.since,
    until: options.until,
  };
}

function safeJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function dataOf(body: unknown, what: string): Record<string, unknown>[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || !data.every((r) => typeof r === 'object' && r !== null))
    throw new GateSourceError(`the ${what} answer has no data array`);
  return data as Record<string, unknown>[];
}

function readPrefix(body: unknown): string {
  const prefix = (body as { meta?: { prefix?: unknown } }).meta?.prefix;
  if (typeof prefix !== 'string') throw new GateSourceError('the usage answer has no meta.prefix');
  return prefix;
}

function instant(value: unknown, what: string): number {
  const at = typeof value === 'string' ? parseIsoInstant(value) : undefined;
  if (at === undefined) throw new GateSourceError(`${what} is not an ISO 8601 instant: ${String(value).slice(0, 40)}`);
  return at;
}

function toUsageRows(body: unknown): GateUsageRow[] {
  return dataOf(body, 'usage').map((r) => {
    const { version, endpoint, clientId, clientName, contact, calls } = r;
    if (
      typeof version !== 'string' ||
      typeof endpoint !== 'string' ||
      typeof clientId !== 'string' ||
      !(typeof clientName === 'string' || clientName === null) ||
      typeof calls !== 'number'
    )
      throw new GateSourceError(
        `a usage row is not (version, endpoint, clientId, clientName, calls): ${JSON.stringify(r).slice(0, 200)}`,
      );
    return {
      version,
      endpoint,
      clientId,
      clientName,
      contact: contact === true,
      calls,
      lastSeen: instant(r.lastSeen, 'lastSeen'),
    };
  });
}

function toApprovals(body: unknown): GateApproval[] {
  return dataOf(body, 'approvals').map((a) => {
    if (typeof a.fingerprint !== 'string' || typeof a.reason !== 'string' || typeof a.approvedBy !== 'string')
      throw new GateSourceError(
        `an approval is not (fingerprint, reason, approvedBy): ${JSON.stringify(a).slice(0, 200)}`,
      );
    return {
      fingerprint: a.fingerprint,
      reason: a.reason,
      approvedBy: a.approvedBy,
      approvedAt: instant(a.approvedAt, 'approvedAt'),
      expiresAt: a.expiresAt === null || a.expiresAt === undefined ? null : instant(a.expiresAt, 'expiresAt'),
    };
  });
}
