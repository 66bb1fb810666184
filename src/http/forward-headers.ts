import type { FastifyReply, FastifyRequest } from 'fastify';
import { stateOf } from './pipeline/request-state.ts';

/** Header fields as Node.js keeps them: lower-case names, a list for a repeated field. */
export type Headers = Record<string, string | string[] | undefined>;

/** Response headers the lifecycle sets: the gateway's value wins over the upstream's. */
const oursNames = new Set(['deprecation', 'sunset', 'warning', 'api-supported-versions', 'api-deprecated-versions']);
/** List-valued headers: the upstream's value and the gateway's are joined. */
const joined = ['link', 'vary'];

/**
 * Path and method overrides some frameworks (IIS, Symfony, Laminas) take over the request line:
 * the upstream would route on a path the gateway never judged.
 */
export const pathOverrides = [
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
];

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded either way. */
export const hopByHop = [
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

/**
 * A copy of `headers` with only the names `keep` accepts, and none that `Connection` names. A new
 * object rather than `delete`s: deleting makes V8 turn the object into a slow dictionary.
 */
export function copyHeaders(headers: Headers, keep: (name: string) => boolean): Headers {
  const connection = headers.connection;
  let named: Set<string> | undefined;
  if (connection !== undefined) {
    named = new Set();
    for (const name of (Array.isArray(connection) ? connection.join(',') : connection).split(','))
      if (name.trim()) named.add(name.trim().toLowerCase());
  }
  const out: Headers = {};
  for (const name in headers) {
    if (!keep(name) || named?.has(name)) continue;
    out[name] = headers[name];
  }
  return out;
}

/** Say who asked (RFC 7239 and the `X-Forwarded-*` trio). */
export function withForwarded(headers: Headers, request: FastifyRequest): Headers {
  const previous = headers['x-forwarded-for'];
  const host = request.headers.host ?? '';
  headers['x-forwarded-for'] = previous ? `${String(previous)}, ${request.ip}` : request.ip;
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-host'] = host;
  const node = request.ip.includes(':') ? `"[${request.ip}]"` : request.ip;
  const entry = `for=${node};proto=${request.protocol}${host ? `;host="${host.replace(/["\\]/g, '')}"` : ''}`;
  headers.forwarded = headers.forwarded ? `${String(headers.forwarded)}, ${entry}` : entry;
  return headers;
}

/** The upstream's response headers as the client gets them: no hop-by-hop ones, the lifecycle's own winning, lists joined. */
export function mergeResponseHeaders(upstream: Headers, reply: FastifyReply): Headers {
  const headers = copyHeaders(
    upstream,
    (name) =>
      name === 'transfer-encoding' || (!hopByHopNames.has(name) && !(oursNames.has(name) && reply.hasHeader(name))),
  );
  for (const name of joined) {
    const mine = reply.getHeader(name);
    const theirs = headers[name];
    if (mine !== undefined && theirs !== undefined) headers[name] = `${String(theirs)}, ${String(mine)}`;
  }
  if (stateOf(reply.request).versionFromAccept) {
    const vary = headers.vary ?? reply.getHeader('vary');
    if (vary === undefined) headers.vary = 'Accept';
    else if (!/(^|,)\s*accept\s*(,|$)/i.test(String(vary))) headers.vary = `${String(vary)}, Accept`;
  }
  return headers;
}
