import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { installListedSteps } from './pipeline/listed-steps.ts';
import { defineStep } from './pipeline/step-definition.ts';

/**
 * Why a request target is refused, or `undefined` when it has one meaning only. The router
 * matches the raw target, and whatever sits behind it (the gateway's upstream, a framework, a
 * WSGI server, WHATWG `new URL()`) may read the same bytes differently: `\` as `/`, `%2e%2e` as
 * `..`, `;x=1` as a matrix parameter, `//` as one slash. A target any of them could read as
 * another path is refused rather than normalised, so that what is routed, judged (lifecycle,
 * brownouts, usage, roles) and forwarded is one and the same path.
 */
function ambiguityOf(url: string): string | undefined {
  const target = originFormOf(url);
  if (target[0] !== '/') return 'a target that is neither a path nor an absolute http URL';
  // Most targets, query included, hold none of the characters below: one scan of the whole target
  // answers them, with no search for the query and no copy of the path (this runs on every request).
  if (!/[\\;%]|\/\/|\/\./.test(target)) return undefined;
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (!/[\\;%]|\/\/|\/\./.test(path)) return undefined;
  if (path.includes('\\')) return 'a backslash';
  if (path.includes('//')) return 'an empty segment ("//")';
  if (path.includes(';')) return 'a ";" (a matrix parameter)';
  for (let at = path.indexOf('%'); at !== -1; at = path.indexOf('%', at + 1)) {
    const hex = path.slice(at + 1, at + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return 'a "%" that is not followed by two hexadecimal digits';
    const code = Number.parseInt(hex, 16);
    if (code === 0x2f || code === 0x5c) return 'an encoded "/" or "\\" (%2F, %5C)';
    if (code < 0x20 || code === 0x7f) return 'an encoded control character';
  }
  for (const segment of path.split('/')) {
    const plain = segment.replace(/%2e/gi, '.');
    if (plain === '.' || plain === '..') return 'a "." or ".." segment (plain or percent-encoded)';
  }
  return undefined;
}

/**
 * The target without the scheme and authority of an absolute-form target (`GET http://h/x
 * HTTP/1.1`, which a server must accept, RFC 9112 §3.2.2): what the router matches and what is
 * forwarded. Any other target is returned as it is.
 */
export function originFormOf(url: string): string {
  // An origin-form target (nearly every one) has no scheme to strip.
  if (url.charCodeAt(0) === 47) return url;
  const origin = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!origin) return url;
  const rest = url.slice(origin[0].length);
  return rest[0] === '/' ? rest : `/${rest}`;
}

/**
 * Why the message's framing is refused, or `undefined`: a repeated `Host`, `Transfer-Encoding`
 * on HTTP/1.0, and a transfer coding other than `chunked` alone (nginx answers all three with
 * 400 or 501). Two parsers in a chain that frame a message differently is how requests are smuggled.
 */
function framingFaultOf(req: IncomingMessage): string | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'Host is repeated';
  const coding = req.headers['transfer-encoding'];
  if (coding === undefined) return undefined;
  if (req.httpVersion === '1.0') return 'HTTP/1.0 has no Transfer-Encoding';
  if (coding.trim().toLowerCase() !== 'chunked') return 'the only transfer coding accepted is "chunked"';
  return undefined;
}

/**
 * The problem a refused target gets (404: the spec's "invalid ID or URI") or a refused framing
 * (400), or `undefined` for a sound request.
 */
export function strictRequestError(req: IncomingMessage): VersionaryError | undefined {
  const ambiguity = ambiguityOf(req.url ?? '/');
  if (ambiguity)
    return new VersionaryError({
      code: ErrorCode.NotFound,
      detail: `The request path holds ${ambiguity}, which servers read differently: send the canonical path.`,
    });
  const fault = framingFaultOf(req);
  if (fault)
    return new VersionaryError({
      code: ErrorCode.MalformedRequest,
      detail: `The request is framed ambiguously: ${fault}.`,
      headers: { connection: 'close' },
    });
  return undefined;
}

/**
 * Refuse ambiguous targets and framings (see {@link ambiguityOf}, {@link framingFaultOf}) before
 * any other hook: register it first. Router failures on the same targets (a bad `%` escape) are
 * refused the same way by the `frameworkErrors` of `serviceServerOptions`.
 */
export function installStrictRequests(app: FastifyInstance, prefix?: string): void {
  installListedSteps({ app, prefix }, 'strict-requests', {});
}

declare module './pipeline/step-definition.ts' {
  interface StepResources {
    'strict-requests': Record<string, never>;
  }
}

/** The `gate:strict-requests` step of {@link installStrictRequests}. */
export const strictRequestsStep = defineStep({
  part: 'strict-requests',
  name: 'strict-requests',
  phase: 'gate',
  create: () => (request) => {
    const error = strictRequestError(request.raw);
    if (error) throw error;
  },
});
