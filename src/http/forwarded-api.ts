import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { compileElementUses, type ElementUseCheck } from '../core/lifecycle/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import type { ApiVersion, OperationSpec, VersionBundle } from '../core/versions/index.ts';
import { isVersionFromAccept } from './negotiation.ts';
import { runHooks } from './version-hooks.ts';
import { sendProblem } from './problem.ts';
import { originFormOf } from './request-target.ts';
import type { OperationCallListener, VersionedApiOptions, VersionedRequestHook } from './versioned-api.ts';

/**
 * How the plugin forwards a version to an upstream instead of calling handlers (`versionary
 * gateway`).
 *
 * @example
 * ```ts
 * const forward: ForwardOptions = { upstreams: { v1: 'http://127.0.0.1:9001', v2: 'http://127.0.0.1:9002' } };
 * ```
 */
export interface ForwardOptions {
  /** Each version's upstream origin, by version name. */
  upstreams: Record<string, string>;
  /** How long to wait for the upstream's response headers, and between body chunks (ms, default 30 000); then 504. */
  timeoutMs?: number;
  /**
   * Forward request headers whose name holds `_` (default false: they are dropped, as nginx's
   * `underscores_in_headers off` does, since CGI and WSGI servers read `X_Client` and `X-Client`
   * as one variable, `HTTP_X_CLIENT`, and a client could pass off its own beside the gateway's).
   */
  underscoresInHeaders?: boolean;
  /** Change the headers sent upstream, after hop-by-hop headers are gone and `Forwarded` is set. */
  requestHeaders?: (
    headers: Record<string, string | string[] | undefined>,
    request: FastifyRequest,
  ) => Record<string, string | string[] | undefined>;
}

/** Response headers the lifecycle sets: the gateway's value wins over the upstream's. */
const ours = ['deprecation', 'sunset', 'warning', 'api-supported-versions', 'api-deprecated-versions'];
/** List-valued headers: the upstream's value and the gateway's are joined. */
const joined = ['link', 'vary'];

/**
 * Register every version of the bundle as a forwarding route: each documented path (with the
 * lifecycle's verdict by its template) and a catch-all for the rest of the version (`/*`), every
 * method. Bodies stream both ways; the upstream's status, headers and body pass unchanged but for
 * hop-by-hop headers and the lifecycle's own. A refused or failed connection is a 502 problem, a
 * slow upstream a 504 one.
 */
export async function registerForwardedApi(
  app: FastifyInstance,
  options: {
    bundle: VersionBundle;
    prefix: string;
    vendor: string;
    forward: ForwardOptions;
    onVersionedRequest: VersionedRequestHook[];
    /** Told once per forwarded call, before the hooks; an undocumented path counts as `METHOD /*`. */
    onOperationCall?: OperationCallListener;
    /** Deprecated query parameters and `fields=` names; bodies stream unread, so a field sent in one is not seen. */
    elementUses?: VersionedApiOptions['elementUses'];
  },
): Promise<void> {
  for (const version of options.bundle.versions) {
    const upstream = options.forward.upstreams[version.name];
    if (!upstream)
      throw new VersionaryError({ code: ErrorCode.InvalidConfig, detail: `No upstream for ${version.name}.` });
    // Loaded only here: an app that never forwards needs no proxy package (an optional peer dependency).
    const { default: replyFrom } = await import('@fastify/reply-from');
    await app.register(async (scope) => {
      // Bodies are forwarded as they arrive: never parsed, never buffered.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      const timeout = options.forward.timeoutMs ?? 30_000;
      await scope.register(replyFrom, {
        base: upstream,
        disableRequestLogging: true,
        retryMethods: [],
        undici: {
          connections: 128,
          pipelining: 1,
          keepAliveTimeout: 60_000,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        },
      });
      registerVersionRoutes(scope, { ...options, version });
    });
  }
}

function registerVersionRoutes(
  scope: FastifyInstance,
  options: {
    bundle: VersionBundle;
    prefix: string;
    vendor: string;
    forward: ForwardOptions;
    onVersionedRequest: VersionedRequestHook[];
    onOperationCall?: OperationCallListener;
    elementUses?: VersionedApiOptions['elementUses'];
    version: ApiVersion;
  },
): void {
  const { version } = options;
  const base = `${options.prefix}/${version.name}`;
  const supported = options.bundle.versions.map((v) => v.name);
  const byPath = new Map<string, OperationSpec[]>();
  for (const op of version.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const forward = createForwarder(options.forward, base);
  // Compiled once per documented operation; one without deprecated elements gets no check.
  const usesOf = new Map<OperationSpec, ElementUseCheck>();
  for (const op of options.elementUses ? version.operations : []) {
    const check = compileElementUses({ version: version.name, operation: op, elements: options.elementUses!.elements });
    if (check) usesOf.set(op, check);
  }
  // Built once per documented operation, not per call.
  const endpoints = new Map(version.operations.map((op) => [op, `${op.method} ${op.path}`]));
  const route = (url: string, path: string, documented: OperationSpec[]) => {
    scope.route({
      method: scope.supportedMethods,
      url,
      // Compiled per route: the version's hooks are awaited only when one returns a promise.
      onRequest: (request, reply, done) => {
        try {
          resolveVersion({
            pathVersion: version.number,
            accept: request.headers.accept,
            supported,
            vendor: options.vendor,
          });
        } catch (error) {
          return done(error as Error);
        }
        const method = request.method === 'HEAD' ? 'GET' : request.method;
        const operation = documented.find((op) => op.method === method) ?? {
          id: `${method} ${path}`,
          method: method as OperationSpec['method'],
          path,
          summary: '',
          responses: {},
        };
        const check = usesOf.get(operation);
        try {
          options.onOperationCall?.(request, version.name, endpoints.get(operation) ?? `${method} ${path}`);
        } catch (error) {
          return done(error as Error);
        }
        runHooks(options.onVersionedRequest, { request, reply, version, operation }, (error) => {
          if (error || !check || reply.sent) return done(error);
          try {
            const used = check({ body: undefined, query: request.query as Record<string, unknown> });
            if (used.length > 0) options.elementUses!.onUse({ request, reply, version, operation, used });
          } catch (failure) {
            return done(failure as Error);
          }
          done();
        });
      },
      handler: forward,
    });
  };
  // The route pattern only matches: the original URL is what goes upstream. A literal `:` is
  // doubled (find-my-way's escape, for paths such as `/jobs/{id}:cancel`), and parameter names are
  // reduced to word characters (a `-` would end the name).
  const pattern = (path: string) =>
    path === '/'
      ? ''
      : path.replace(/:/g, '::').replace(/\{([^}]+)\}/g, (_m, name: string) => `:${name.replace(/\W/g, '_')}`);
  for (const [path, documented] of byPath) route(base + pattern(path), path, documented);
  // Paths the document does not name still reach the upstream: the version's verdict applies, and usage counts them under `/*`.
  if (!byPath.has('/*')) route(`${base}/*`, '/*', []);
}

/** The handler of a version's routes: `routed` is the version's base path (`/api/v2`), and nothing outside it goes upstream. */
function createForwarder(
  options: ForwardOptions,
  routed: string,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const onError = (reply: FastifyReply, { error }: { error: Error & { code?: string; statusCode?: number } }) => {
    const timedOut =
      error.statusCode === 504 ||
      /TIMEOUT/i.test(error.code ?? '') ||
      /TIMEOUT/i.test((error.cause as { code?: string } | undefined)?.code ?? '');
    reply.request.log.warn(
      { err: { message: error.message, code: error.code } },
      timedOut ? 'upstream timed out' : 'upstream unreachable',
    );
    if (reply.sent || reply.raw.headersSent) return void reply.raw.destroy();
    reply.header('connection', 'close');
    sendProblem(
      reply,
      new VersionaryError(
        timedOut
          ? { code: ErrorCode.UpstreamTimeout, detail: 'The upstream did not answer in time.' }
          : { code: ErrorCode.UpstreamUnreachable, detail: 'The upstream could not be reached.' },
      ),
    );
  };
  type FromOptions = NonNullable<Parameters<FastifyReply['from']>[1]>;
  const rewriteRequestHeaders = ((req: FastifyRequest, headers: Headers) => {
    const out = withForwarded(withoutHopByHop(headers), req);
    if (!options.underscoresInHeaders) for (const name of Object.keys(out)) if (name.includes('_')) delete out[name];
    // Path overrides some frameworks (IIS, Symfony, Laminas) take over the request line: the
    // upstream would route on a path the gateway never judged.
    for (const name of pathOverrides) delete out[name];
    return options.requestHeaders ? options.requestHeaders(out, req) : out;
  }) as unknown as FromOptions['rewriteRequestHeaders'];
  return (request, reply) => {
    // The strict-target hook refused every path that `new URL()` (in reply-from) would resolve
    // differently; this is the last word that nothing outside the version goes upstream.
    // An absolute-form target is forwarded in origin form: its authority is not the upstream's.
    const url = originFormOf(request.url);
    const target = new URL(url, 'http://upstream').pathname;
    if (target !== routed && !target.startsWith(`${routed}/`))
      return sendProblem(
        reply,
        new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The request path is not canonical.' }),
      );
    // reply-from decodes the whole target as UTF-8 to look for `..`, and throws on a stray `%` or a
    // Latin-1 escape such as `%E9`: a 400 problem rather than an unhandled URIError.
    if (url.includes('%') && !decodes(url)) {
      return sendProblem(
        reply,
        new VersionaryError({
          code: ErrorCode.MalformedRequest,
          detail: 'The request target is not valid percent-encoded UTF-8.',
        }),
      );
    }
    return reply.from(url, {
      onError: onError as unknown as FromOptions['onError'],
      rewriteRequestHeaders,
      rewriteHeaders: ((headers: Headers) =>
        mergeResponseHeaders(headers, reply)) as unknown as FromOptions['rewriteHeaders'],
    });
  };
}

function decodes(target: string): boolean {
  try {
    decodeURIComponent(target);
    return true;
  } catch {
    return false;
  }
}

type Headers = Record<string, string | string[] | undefined>;

const pathOverrides = [
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
function withoutHopByHop(headers: Headers, keep?: string): Headers {
  const connection = headers.connection;
  const named = (Array.isArray(connection) ? connection.join(',') : (connection ?? '')).split(',');
  for (const name of named) if (name.trim()) delete headers[name.trim().toLowerCase()];
  for (const name of hopByHop) if (name !== keep) delete headers[name];
  return headers;
}

/** Say who asked (RFC 7239 and the `X-Forwarded-*` trio). */
function withForwarded(headers: Headers, request: FastifyRequest): Headers {
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

function mergeResponseHeaders(headers: Headers, reply: FastifyReply): Headers {
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
