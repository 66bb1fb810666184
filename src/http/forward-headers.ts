import type { FastifyReply, FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

/** Header fields as Node.js keeps them: lower-case names, a list for a repeated field. */
export type Headers = Record<string, string | string[] | undefined>;

/** Response headers the lifecycle sets: the gateway's value wins over the upstream's. */
const oursNames = new Set(['deprecation', 'sunset', 'warning', 'api-supported-versions', 'api-deprecated-versions']);
/** List-valued headers: the upstream's value and the gateway's are joined. */
const joined = new Set(['link', 'vary']);

/**
 * Path and method overrides some frameworks (IIS, Symfony, Laminas) take over the request line:
 * the upstream would route on a path the gateway never judged.
 */
const pathOverrides = [
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
];

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded either way. */
const hopByHop = [
  'connection',
  // Answered by the gateway itself (Node sends `100 Continue`): undici refuses to forward it.
  'expect',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

const hopByHopNames = new Set(hopByHop);

const namesClose: ReadonlySet<string> = new Set(['close']);

/** The names a `Connection` header lists; the usual values (`keep-alive`, `close`) cost no new set. */
function connectionNames(connection: string | string[] | undefined): ReadonlySet<string> | undefined {
  if (connection === undefined) return undefined;
  const value = Array.isArray(connection) ? connection.join(',') : connection;
  // `keep-alive` names a hop-by-hop header, dropped anyway.
  if (/^\s*keep-alive\s*$/i.test(value)) return undefined;
  if (/^\s*close\s*$/i.test(value)) return namesClose;
  const named = new Set<string>();
  for (const name of value.split(',')) if (name.trim()) named.add(name.trim().toLowerCase());
  return named;
}

/** Request headers as undici takes them: a flat list of names and values, in the order they go out. */
export type HeaderList = (string | string[])[];

/** How a forwarder builds the headers it sends upstream, fixed when its routes are registered. */
export interface UpstreamHeadersOptions {
  /** The upstream's authority, sent as `Host`. */
  host: string;
  /** Forward names that hold `_`. */
  underscores: boolean;
  /** Request headers never forwarded (lower-case), beside hop-by-hop ones, path overrides and `Host`. */
  withheld?: readonly string[];
  /** Headers the forwarder sets, replacing what the client sent: each one's value for this request (`undefined` sends none). */
  set?: Readonly<Record<string, (request: FastifyRequest) => string | undefined>>;
}

/**
 * The builder of each request's upstream headers: one pass over the client's headers into the
 * list undici sends, then `Host`, `Forwarded` (RFC 7239) and the `X-Forwarded-*` trio (what most
 * frameworks read), and the `set` headers. Which names pass is decided here, once; per request
 * only the list and the forwarded values are new.
 */
export function createUpstreamHeaders(options: UpstreamHeadersOptions): (request: FastifyRequest) => HeaderList {
  const set = Object.entries(options.set ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
  const dropped = new Set([
    ...hopByHop,
    ...pathOverrides,
    'host',
    // Rebuilt below from what the client sent.
    'x-forwarded-for',
    'x-forwarded-proto',
    'x-forwarded-host',
    'forwarded',
    ...(options.withheld ?? []).map((name) => name.toLowerCase()),
    ...set.map(([name]) => name),
  ]);
  const { host: upstreamHost, underscores } = options;
  return (request) => {
    const headers = request.headers;
    const named = connectionNames(headers.connection);
    const out: HeaderList = ['host', upstreamHost];
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined || dropped.has(name) || (!underscores && name.includes('_')) || named?.has(name))
        continue;
      out.push(name, value);
    }
    // A chain that the client's `Connection` names is gone with the hop.
    const previousFor = named?.has('x-forwarded-for') ? undefined : headers['x-forwarded-for'];
    const previous = named?.has('forwarded') ? undefined : headers.forwarded;
    const ip = request.ip;
    const proto = request.protocol;
    const host = headers.host ?? '';
    out.push('x-forwarded-for', previousFor ? `${String(previousFor)}, ${ip}` : ip);
    out.push('x-forwarded-proto', proto, 'x-forwarded-host', host);
    const node = ip.includes(':') ? `"[${ip}]"` : ip;
    const quoted = host.includes('"') || host.includes('\\') ? host.replace(/["\\]/g, '') : host;
    const entry = `for=${node};proto=${proto}${host ? `;host="${quoted}"` : ''}`;
    out.push('forwarded', previous ? `${String(previous)}, ${entry}` : entry);
    for (const [name, valueOf] of set) {
      const value = valueOf(request);
      if (value !== undefined) out.push(name, value);
    }
    return out;
  };
}

/** The list as an object, for a `requestHeaders` hook written against one. */
export function headersOfList(list: HeaderList): Headers {
  const out: Headers = {};
  for (let i = 0; i < list.length; i += 2) out[list[i] as string] = list[i + 1];
  return out;
}

/**
 * Set the upstream's response headers on the reply as the client gets them: no hop-by-hop ones
 * (but `Transfer-Encoding`, which tells how the answer is framed), the lifecycle's own winning,
 * lists joined. Straight onto the reply: no copy of them is made first.
 */
export function setResponseHeaders(upstream: Headers, reply: FastifyReply): void {
  const named = connectionNames(upstream.connection);
  for (const name in upstream) {
    const theirs = upstream[name];
    if (theirs === undefined || named?.has(name)) continue;
    if (hopByHopNames.has(name) && name !== 'transfer-encoding') continue;
    if (oursNames.has(name) && reply.hasHeader(name)) continue;
    const mine = joined.has(name) ? reply.getHeader(name) : undefined;
    reply.header(name, mine === undefined ? theirs : `${String(theirs)}, ${String(mine)}`);
  }
  if (stateOf(reply.request).versionFromAccept) {
    const vary = reply.getHeader('vary');
    if (vary === undefined) reply.header('vary', 'Accept');
    else if (!/(^|,)\s*accept\s*(,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, Accept`);
  }
}
