import { decide, type DecisionTable, type RequestFacts } from '../../src/core/rulebook/index.ts';
import { canonicalPath, targetUndecodable, targetUnreadable } from '../../src/core/rulebook/canonical-path.ts';
import { allowOf } from '../../src/core/rulebook/problems.ts';
import { methodsAt, ruleMethodOf, templateAt } from '../../src/core/rulebook/route-index.ts';
import { request } from 'node:http';
import type { RawResponse } from './nginx.ts';
import { rawExchange } from './raw-socket.ts';
import {
  parityBrownouts,
  parityCases,
  parityClients,
  parityEpoch,
  parityGrant,
  parityMinimum,
  parityMoments,
  parityRateLimit,
  type ParityCase,
  type ParityClient,
  type ParityExpectation,
} from './parity-cases.ts';

/**
 * A data plane under test: where it answers, the admin key of its control plane, and how to move
 * its clock (every target of one run shares the scenario's instants). `seed` makes `GET
 * /api/v2/users/1` exist where the upstream does not already answer it.
 */
export interface ParityTarget {
  name: string;
  base: string;
  /** Where the management API answers (the same as `base` unless the data plane is separate). */
  adminBase?: string;
  adminKey: string;
  /** Move the target's clock; a data plane that is pushed its rules (nginx) resolves once it has them. */
  setNow(now: number): void | Promise<void>;
  seed?: (call: AdminCall) => Promise<void>;
}

type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** What one data plane answered (or core decided) for a case. */
export interface ParityAnswer {
  status?: number;
  allowed: boolean;
  problemType?: string;
  headers: Record<string, string>;
}

/** The scenario's clients as the target knows them: their ids and keys. */
export interface ParityClients {
  ids: Record<ParityClient, string>;
  keys: Record<ParityClient, string>;
}

function adminCall(target: ParityTarget): AdminCall {
  return async (method, path, body) => {
    const res = await fetch(`${target.adminBase ?? target.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/**
 * Set the scenario up on a target started with `parityConfig` at `parityEpoch`: the clients and
 * their keys, `early`'s call to v1 before the closing, `acme`'s extended access and `moved`'s
 * minimum version.
 */
export async function prepareParity(target: ParityTarget): Promise<ParityClients> {
  const call = adminCall(target);
  await target.setNow(parityEpoch);
  const ids = {} as Record<ParityClient, string>;
  const keys = {} as Record<ParityClient, string>;
  for (const name of parityClients) {
    const client = await call('POST', '/admin/v1/clients', { name, contacts: [] });
    ids[name] = (client.body as { id: string }).id;
    const key = await call('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: ids[name] });
    keys[name] = (key.body as { key: string }).key;
  }
  await target.seed?.(call);
  const early = await fetch(`${target.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys.early}` } });
  if (early.status !== 200) throw new Error(`${target.name}: early's call to v1 answered ${early.status}`);
  const { client, endpoint, until } = parityGrant;
  const granted = await call('POST', '/admin/v1/extended-access-grants', {
    clientId: ids[client],
    endpoint,
    until,
    reason: 'parity',
  });
  if (granted.status !== 201) throw new Error(`${target.name}: the grant: ${JSON.stringify(granted.body)}`);
  const minimum = await call('PATCH', `/admin/v1/clients/${ids[parityMinimum.client]}`, {
    minimumVersion: parityMinimum.version,
  });
  if (minimum.status !== 200) throw new Error(`${target.name}: the minimum version: ${JSON.stringify(minimum.body)}`);
  const { targeted, schedule, version } = parityBrownouts;
  const { clients: aimed, ...window } = targeted;
  const planned = [
    await call('POST', '/admin/v1/brownouts', { ...window, target: { clients: aimed.map((name) => ids[name]) } }),
    await call('POST', '/admin/v1/brownout-schedules', schedule),
    await call('POST', '/admin/v1/brownouts', version),
  ];
  for (const res of planned)
    if (res.status !== 201) throw new Error(`${target.name}: a brownout: ${JSON.stringify(res.body)}`);
  return { ids, keys };
}

/** The served decision table at the target's current instant. */
export async function servedTable(target: ParityTarget): Promise<DecisionTable> {
  const res = await adminCall(target)('GET', '/admin/v1/decision-table');
  if (res.status !== 200) throw new Error(`${target.name}: decision table answered ${res.status}`);
  return res.body as DecisionTable;
}

/** Core's answer to a case: the facts a data plane would gather, then `decide` on the table. */
export function coreAnswer(
  c: ParityCase,
  o: { table: DecisionTable; clients: ParityClients; now: number },
): ParityAnswer {
  const { table, clients, now } = o;
  if (targetUnreadable(c.target)) return problemAnswer(table, 'target-unreadable');
  const canonical = canonicalPath(c.target);
  if ('refused' in canonical) return problemAnswer(table, `target-${canonical.refused}`);
  const { path } = canonical;
  // Not the API's: the data plane's own 404, no rule judges it.
  if (!path.startsWith(`${table.prefix}/`))
    return { status: 404, allowed: false, problemType: '/problems/not-found', headers: {} };
  const rest = path.slice(table.prefix.length);
  const segment = rest.split('/')[1]!;
  const version = /^v\d+$/.test(segment) ? segment : undefined;
  const below = version === undefined ? rest : rest.slice(version.length + 1) || '/';
  const template = version === undefined ? undefined : templateOf(table, { version, method: c.method, below });
  // The methods the route there declares: a path no route names is left to the data plane (the
  // service has no catch-all), so no case asks one with a method of its own.
  const methods = version === undefined ? undefined : methodsAt(table.routes[version] ?? [], below, 'none');
  const facts: RequestFacts = {
    method: c.method,
    path,
    now,
    ...(version === undefined ? {} : { version, versionSource: 'path' as const }),
    ...(template === undefined ? {} : { template }),
    ...(methods === undefined ? {} : { methods }),
    ...(c.client ? { principal: { client: clients.ids[c.client], roles: ['read'] } } : {}),
    ...parametersOf(c.target),
  };
  const decision = decide(facts, table);
  if (decision.outcome === 'refuse')
    return {
      status: decision.problem.status,
      allowed: false,
      problemType: decision.problem.body.type,
      headers: { ...decision.headers, ...decision.problem.headers },
    };
  // OPTIONS on a route: the data plane's own 204 with `Allow`.
  if (c.method === 'OPTIONS' && methods !== undefined)
    return { allowed: true, headers: { ...decision.headers, allow: allowOf(methods) } };
  // Allowed, but no operation there: the data plane's 404 (a version that forwards undocumented
  // paths would pass it on; the scenario has none).
  if (template === undefined)
    return { status: 404, allowed: false, problemType: '/problems/not-found', headers: decision.headers };
  // The last word before the upstream: a target that is not percent-encoded UTF-8 is not forwarded.
  if (targetUndecodable(c.target)) return problemAnswer(table, 'target-undecodable');
  return { allowed: true, headers: decision.headers };
}

/** The query's parameter names, lower-case, as facts carry them. */
function parametersOf(target: string): { parameters?: string[] } {
  const at = target.indexOf('?');
  if (at === -1) return {};
  const names = [...new URLSearchParams(target.slice(at + 1)).keys()].map((name) => name.toLowerCase());
  return names.length === 0 ? {} : { parameters: names };
}

function problemAnswer(table: DecisionTable, key: string): ParityAnswer {
  const problem = table.problems[key]!;
  return { status: problem.status, allowed: false, problemType: problem.body.type, headers: problem.headers };
}

/** The operation a path below the version matches (core's route index): `{name}` is one non-empty segment. */
function templateOf(
  table: DecisionTable,
  { version, method, below }: { version: string; method: string; below: string },
): string | undefined {
  const rows = (table.routes[version] ?? []).filter((row) => row.method === ruleMethodOf(method));
  return templateAt(
    rows.map((row) => row.template),
    below,
  );
}

/** A target's answer to a case, over a socket, the target sent byte for byte. */
export async function httpAnswer(target: ParityTarget, c: ParityCase, clients: ParityClients): Promise<ParityAnswer> {
  const headers: Record<string, string> = c.client ? { authorization: `Bearer ${clients.keys[c.client]}` } : {};
  const res = targetUnreadable(c.target)
    ? await socketCall(target.base, { target: c.target, method: c.method, headers })
    : await rawCall(target.base, { target: c.target, method: c.method, headers });
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  const problem =
    /problem\+json/.test(flat['content-type'] ?? '') && res.body !== ''
      ? (JSON.parse(res.body) as { type?: string })
      : undefined;
  return {
    status: res.status,
    allowed: res.status >= 200 && res.status < 300,
    ...(problem?.type ? { problemType: problem.type } : {}),
    headers: flat,
  };
}

/** Where an answer differs from what the case expects, in words; empty when it agrees. */
export function differences(expect: ParityExpectation, answer: ParityAnswer): string[] {
  const found: string[] = [];
  if (expect.allowed && !answer.allowed)
    found.push(`refused (${answer.status} ${answer.problemType ?? ''}), expected allowed`);
  if (!expect.allowed && answer.allowed) found.push(`allowed, expected ${expect.status}`);
  if (expect.status !== undefined && answer.status !== undefined && answer.status !== expect.status)
    found.push(`status ${answer.status}, expected ${expect.status}`);
  if (expect.problemType !== undefined && answer.problemType !== expect.problemType)
    found.push(`problem ${answer.problemType}, expected ${expect.problemType}`);
  for (const [name, want] of Object.entries(expect.headers ?? {})) {
    const got = answer.headers[name];
    const ok =
      want === null ? got === undefined : typeof want === 'string' ? got === want : got !== undefined && want.test(got);
    if (!ok) found.push(`${name}: ${JSON.stringify(got)}, expected ${want === null ? 'none' : String(want)}`);
  }
  return found;
}

/**
 * Run every parity case against a prepared target: at each moment, core's `decide` on the table
 * the target serves then, and the target itself over a socket. Returns one line per difference.
 */
export async function runParity(
  target: ParityTarget,
  clients: ParityClients,
  moments: Readonly<Record<string, number>> = parityMoments,
): Promise<string[]> {
  const lines: string[] = [];
  for (const [moment, now] of Object.entries(moments)) {
    await target.setNow(now);
    const table = await servedTable(target);
    for (const c of parityCases.filter((p) => p.at === moment)) {
      for (const d of differences(c.expect, coreAnswer(c, { table, clients, now })))
        lines.push(`core (${target.name}'s table): ${c.name}: ${d}`);
      for (const d of differences(c.expect, await httpAnswer(target, c, clients)))
        lines.push(`${target.name}: ${c.name}: ${d}`);
    }
  }
  return lines;
}

/**
 * The rate-limit rule against a prepared target, in a window of its own: returns one line per
 * answer that breaks it. `early` gets a key that also writes (the `default` policy) and a second
 * read-only key: the writer's calls do not drain the read budget, and the read budget, once
 * spent, is spent for every read-only key of the client.
 */
export async function runRateLimitParity(target: ParityTarget, clients: ParityClients): Promise<string[]> {
  const { at, client, target: path, readMax, defaultMax } = parityRateLimit;
  await target.setNow(at);
  const call = adminCall(target);
  const mint = async (roles: string[]) => {
    const body = { name: `${client}-${roles.join('-')}`, roles, clientId: clients.ids[client] };
    return ((await call('POST', '/admin/v1/api-keys', body)).body as { key: string }).key;
  };
  const [writer, secondReader] = [await mint(['read', 'write']), await mint(['read'])];
  const reader = clients.keys[client];
  const get = (key: string) =>
    rawCall(target.base, { target: path, method: 'GET', headers: { authorization: `Bearer ${key}` } });
  const lines: string[] = [];
  const check = (what: string, res: RawResponse, expected: { status: number; ratelimit?: RegExp }) => {
    const { status, ratelimit } = expected;
    if (res.status !== status) lines.push(`${target.name}: ${what}: status ${res.status}, expected ${status}`);
    const field = String(res.headers.ratelimit ?? '');
    if (ratelimit && !ratelimit.test(field))
      lines.push(`${target.name}: ${what}: ratelimit ${field}, expected ${String(ratelimit)}`);
  };
  const field = (policy: string, remaining: number) => new RegExp(`^"${policy}";r=${remaining};t=\\d+$`);
  for (let i = 1; i <= readMax; i++) check(`the read-write key's call ${i}`, await get(writer), { status: 200 });
  check('the read key after the read-write key spent as much', await get(reader), {
    status: 200,
    ratelimit: field('read', readMax - 1),
  });
  for (let i = 2; i <= readMax; i++) check(`the read key's call ${i}`, await get(reader), { status: 200 });
  check('the read key over its budget', await get(reader), { status: 429 });
  check("a second read-only key of the client: the client's read budget is spent", await get(secondReader), {
    status: 429,
  });
  check('the read-write key goes on', await get(writer), {
    status: 200,
    ratelimit: field('default', defaultMax - readMax - 1),
  });
  return lines;
}

/** Send a request target Node's client refuses to send (raw bytes), over a socket of its own. */
async function socketCall(
  base: string,
  o: { target: string; method: string; headers: Record<string, string> },
): Promise<RawResponse> {
  const lines = Object.entries({ host: new URL(base).host, ...o.headers, connection: 'close' }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  const head = Buffer.from(`${o.method} ${o.target} HTTP/1.1\r\n${lines.join('')}\r\n`, 'latin1');
  const res = await rawExchange({ port: Number(new URL(base).port) }, [head], { waitMs: 5000 });
  return { status: res.status ?? 0, headers: res.headers, body: res.body };
}

/** Send a request target unchanged (fetch would resolve `..` and `\\`), with any method. */
function rawCall(
  base: string,
  o: { target: string; method: string; headers: Record<string, string> },
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: o.target, method: o.method, headers: o.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
