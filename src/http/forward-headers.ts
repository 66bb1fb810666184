import type { FastifyReply, FastifyRequest } from 'fastify';
import { isVersionFromAccept } from './negotiation.ts';

/** Header fields as Node.js keeps them: lower-case names, a list for a repeated field. */
export type Headers = Record<string, string | string[] | undefined>;

/** Response headers the lifecycle sets: the gateway's value wins over the upstream's. */
const ours = ['deprecation', 'sunset', 'warning', 'api-supported-versions', 'api-deprecated-versions'];
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

/** Drop hop-by-hop headers: the fixed list, and every header `Connection` names (RFC 9110 §7.6.1). */
export function withoutHopByHop(headers: Headers, keep?: string): Headers {
  const connection = headers.connection;
  if (connection !== undefined) {
    const named = (Array.isArray(connection) ? connection.join(',') : connection).split(',');
    for (const name of named) if (name.trim()) delete headers[name.trim().toLowerCase()];
  }
  for (const name of hopByHop) if (name !== keep && headers[name] !== undefined) delete headers[name];
  return headers;
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
export function mergeResponseHeaders(headers: Headers, reply: FastifyReply): Headers {
  withoutHopByHop(headers, 'transfer-encoding');
  for (const name of ours) if (reply.hasHeader(name)) delete headers[name];
  for (const name of joined) {
    const mine = reply.getHeader(name);
    const theirs = headers[name];
    if (mine !== undefined && theirs !== undefined) headers[name] = `${String(theirs)}, ${String(mine)}`;
  }
  if (isVersionFromAccept(reply.request.raw)) {
    const vary = headers.vary ?? reply.getHeader('vary');
    if (vary === undefined) headers.vary = 'Accept';
    else if (!/(^|,)\s*accept\s*(,|$)/i.test(String(vary))) headers.vary = `${String(vary)}, Accept`;
  }
  return headers;
}
