import { propagation } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

/** Header fields as Node.js keeps them: lower-case names, a list for a repeated field. */
export type Headers = Record<string, string | string[] | undefined>;

/**
 * Path and method overrides some frameworks (IIS, Symfony, Laminas) take over the request line:
 * the upstream would route on a path the gateway never judged. nginx's rendered files drop the
 * same list (`src/gateway/nginx/render-conf.ts`).
 */
export const pathOverrides: readonly string[] = [
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

/** Every upstream response header with a rule of its own, found in one lookup; the rest pass as they are. */
const responseKinds = new Map<string, 'hop' | 'ours' | 'joined'>([
  // `Transfer-Encoding` stays: it tells how the answer is framed.
  ...hopByHop.filter((name) => name !== 'transfer-encoding').map((name) => [name, 'hop'] as const),
  // The lifecycle's own: the gateway's value wins over the upstream's.
  ...['deprecation', 'sunset', 'warning', 'api-supported-versions', 'api-deprecated-versions'].map(
    (name) => [name, 'ours'] as const,
  ),
  // The upstream's value and the gateway's are joined.
  ['link', 'joined'],
  ['vary', 'joined'],
]);

const namesClose: ReadonlySet<string> = new Set(['close']);

/** The names a `Connection` header lists; the usual values (`keep-alive`, `close`) cost no new set. */
export function connectionNames(connection: string | string[] | undefined): ReadonlySet<string> | undefined {
  if (connection === undefined || connection === 'keep-alive') return undefined;
  if (connection === 'close') return namesClose;
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
  /** Which forwarding headers go upstream (`ForwardOptions.forwardedHeaders`, default `x-forwarded`). */
  forwarded?: 'both' | 'forwarded' | 'x-forwarded';
}

/**
 * The builder of each request's upstream headers: `Host`, the client's headers that pass, the
 * forwarding headers of the mode (the client's own copies never pass: an upstream trusts its
 * proxy's), then the `set` headers. Which names pass is decided once, not per request.
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
    // With an OpenTelemetry SDK, the trace context (`traceparent`, `tracestate`, `baggage`) is the
    // gateway's to send (its span is the upstream's parent): the client's would be a stale second
    // one. Without an SDK the propagator names nothing, and the client's pass through.
    ...propagation.fields().map((name) => name.toLowerCase()),
  ]);
  const { host: upstreamHost, underscores } = options;
  const mode = options.forwarded ?? 'x-forwarded';
  const trio = mode !== 'forwarded';
  const rfc = mode !== 'x-forwarded';
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
    const ip = request.ip;
    const proto = request.protocol;
    const host = headers.host ?? '';
    // A chain that the client's `Connection` names is gone with the hop.
    if (trio) {
      const previousFor = named?.has('x-forwarded-for') ? undefined : headers['x-forwarded-for'];
      out.push('x-forwarded-for', previousFor ? `${String(previousFor)}, ${ip}` : ip);
      out.push('x-forwarded-proto', proto, 'x-forwarded-host', host);
    }
    if (rfc) {
      const previous = named?.has('forwarded') ? undefined : headers.forwarded;
      const entry = forwardedEntry(ip, proto, host);
      out.push('forwarded', previous ? `${String(previous)}, ${entry}` : entry);
    }
    for (const [name, valueOf] of set) {
      const value = valueOf(request);
      if (value !== undefined) out.push(name, value);
    }
    return out;
  };
}

/** This hop's `Forwarded` element (RFC 7239). */
function forwardedEntry(ip: string, proto: string, host: string): string {
  const node = ip.includes(':') ? `"[${ip}]"` : ip;
  const quoted = host.includes('"') || host.includes('\\') ? host.replace(/["\\]/g, '') : host;
  return `for=${node};proto=${proto}${host ? `;host="${quoted}"` : ''}`;
}

/** The list as an object, for a `requestHeaders` hook written against one. */
export function headersOfList(list: HeaderList): Headers {
  const out: Headers = {};
  for (let i = 0; i < list.length; i += 2) out[list[i] as string] = list[i + 1];
  return out;
}

/** Set the upstream's response headers on the reply: no hop-by-hop ones, the lifecycle's own winning, lists joined. */
export function setResponseHeaders(upstream: Headers, reply: FastifyReply): void {
  const named = connectionNames(upstream.connection);
  for (const name in upstream) {
    const theirs = upstream[name];
    if (theirs === undefined || named?.has(name)) continue;
    const kind = responseKinds.get(name);
    if (kind === undefined || (kind === 'ours' && !reply.hasHeader(name))) reply.header(name, theirs);
    else if (kind === 'joined') {
      const mine = reply.getHeader(name);
      reply.header(name, mine === undefined ? theirs : `${String(theirs)}, ${String(mine)}`);
    }
    // A hop-by-hop header goes no further.
  }
  if (stateOf(reply.request).versionFromAccept) {
    const vary = reply.getHeader('vary');
    if (vary === undefined) reply.header('vary', 'Accept');
    else if (!/(^|,)\s*accept\s*(,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, Accept`);
  }
}
