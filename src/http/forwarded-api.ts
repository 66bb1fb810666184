import { versionDocumentPath } from './api-scope.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import {
  compileElementUses,
  fieldSchemas,
  looseQuery,
  servedSchemas,
  successSchemas,
  type ElementUseCheck,
} from '../core/lifecycle/index.ts';
import type { ApiVersion, OperationSpec, VersionBundle } from '../core/versions/index.ts';
import { routeSteps } from './pipeline/request-pipeline.ts';
import { deprecatedElementsStep, versionRouteSteps } from './route-steps.ts';
import { ruleMethod } from './pipeline/route-description.ts';
import { callUpstream, readingBeforeWriteErrors, upstreamFailed } from './upstream-call.ts';
import { originFormOf, targetUndecodable, undecodableTargetProblem } from '../core/rulebook/canonical-path.ts';
import { forwardDerived } from './derived-forward.ts';
import { createUpstreamHeaders, headersOfList, type HeaderList } from './forward-headers.ts';
import { createResponseChecks } from './response-check.ts';
import { sendProblem } from './problem.ts';
import { createCatchAll, forwardsUndocumented, pathOf, type DocumentedRoutes } from './forwarded-catch-all.ts';
import type { DerivedVersionRoute, ForwardOptions } from './forward-options.ts';
import { addThinVersion } from './thin/thin-plane.ts';
import type { OperationCallListener, VersionedApiOptions, VersionedRequestHook } from './versioned-api-options.ts';

/**
 * Register every version of the bundle as forwarding routes: each documented path (judged by its
 * template) and a catch-all for the rest of the version (`/*`). Bodies stream both ways.
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
    const derived = options.forward.derived?.[version.name];
    const upstream = options.forward.upstreams[derived?.root.name ?? version.name];
    if (!upstream)
      throw new VersionaryError({ code: ErrorCode.InvalidConfig, detail: `No upstream for ${version.name}.` });
    // Loaded only here: an app that never forwards needs no HTTP client package (an optional peer dependency).
    const { Pool, buildConnector } = await import('undici');
    const timeout = options.forward.timeoutMs ?? 30_000;
    // No retries: a retried POST could be applied twice.
    const pool = new Pool(upstream, {
      connections: 128,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      // An upstream that answers before reading the body and closes: its answer is read, not lost to a failed write.
      connect: readingBeforeWriteErrors(buildConnector({})),
    });
    // Destroyed, not closed: by now the server has drained, and a call still open (an upstream
    // that never finishes its answer) must not hold the shutdown.
    app.addHook('onClose', async () => {
      await pool.destroy();
    });
    await app.register(async (scope) => {
      // Bodies are forwarded as they arrive: never parsed, never buffered.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      registerVersionRoutes(scope, { ...options, version, pool, host: new URL(upstream).host });
    });
  }
}

function registerVersionRoutes(
  scope: FastifyInstance,
  options: Parameters<typeof registerForwardedApi>[1] & {
    version: ApiVersion;
    pool: Dispatcher;
    /** The upstream's authority, sent as `Host`. */
    host: string;
  },
): void {
  const { version } = options;
  const base = `${options.prefix}/${version.name}`;
  const byPath = new Map<string, OperationSpec[]>();
  for (const op of version.operations)
    // The version's document is the gateway's own answer (the upstream's with the lifecycle's marks): an
    // upstream that documents its own `/openapi.json` does not get a second route for it.
    if (op.path !== versionDocumentPath) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const derived = options.forward.derived?.[version.name];
  const forward = createForwarder(
    { ...options.forward, pool: options.pool, host: options.host, vendor: options.vendor, derivedRoute: derived },
    base,
  );
  // Compiled once per documented operation; one without deprecated elements gets no check.
  const usesOf = new Map<OperationSpec, ElementUseCheck>();
  // An upstream's document declares no `partial`: `fields=` names members of what the success body holds.
  const served = options.elementUses ? servedSchemas(version) : {};
  for (const op of options.elementUses ? version.operations : []) {
    const check = compileElementUses({
      version: version.name,
      operation: op,
      elements: options.elementUses!.elements,
      reach: (e) => fieldSchemas(e, served),
      selects: op.partial !== undefined ? [op.partial] : successSchemas(version.schemas, op),
      looseNames: true,
    });
    if (check) usesOf.set(op, check);
  }
  // One scope for the version's routes: they share what negotiation has read.
  const stepsScope = {
    version,
    supported: options.bundle.versions.map((v) => v.name),
    vendor: options.vendor,
    hooks: options.onVersionedRequest,
    onOperationCall: options.onOperationCall,
  };
  const routes: DocumentedRoutes = {
    byMethod: new Map(),
    operations: [
      ...[...byPath.values()].flat().map((op) => ({ method: op.method, template: op.path })),
      { method: 'GET', template: versionDocumentPath },
    ],
  };
  const route = (
    url: string,
    path: string,
    o: { documented: OperationSpec[]; methods: string[]; catchAll?: CatchAll },
  ) => {
    const { documented, methods } = o;
    if (methods.length === 0) return;
    // Each method's operation, found once per method when the route's steps are compiled.
    const operations = new Map<string, OperationSpec>();
    const operationOf = (requestMethod: string): OperationSpec => {
      const method = ruleMethod(requestMethod);
      let operation = operations.get(method);
      if (!operation) {
        operation = documented.find((op) => op.method === method) ?? {
          id: `${method} ${path}`,
          method: method as OperationSpec['method'],
          path,
          summary: '',
          responses: {},
        };
        operations.set(method, operation);
      }
      return operation;
    };
    const steps = [...(o.catchAll ? [o.catchAll.guard] : []), ...versionRouteSteps(stepsScope, { operationOf })];
    if (usesOf.size > 0)
      steps.push(
        deprecatedElementsStep({
          phase: 'lifecycle',
          version,
          operationOf,
          checkOf: (operation) => usesOf.get(operation),
          // Read as loosely as any upstream might read it: a spelling that could be the parameter is it.
          read: (request) => ({ body: undefined, query: looseQuery(request.url) }),
          onUse: options.elementUses!.onUse,
        }),
      );
    // A derived version's route forwards its document's operation for the method, translated: the
    // route takes no other method (the catch-all answers it), so nothing else is passed on.
    const handler =
      o.catchAll?.handler ??
      (derived
        ? (request: FastifyRequest, reply: FastifyReply) => forward(request, reply, operationOf(request.method))
        : forward);
    // A documented route's methods, for the catch-all to find.
    for (const method of o.catchAll ? [] : methods) {
      let byTemplate = routes.byMethod.get(method);
      if (!byTemplate) routes.byMethod.set(method, (byTemplate = new Map()));
      byTemplate.set(path, { url, handler });
    }
    scope.route({
      // Only the methods the document declares here: another is the catch-all's 405 (or OPTIONS'
      // 204), never forwarded (core's `methodRule`).
      method: methods,
      url,
      config: { ...routeSteps(steps), ...o.catchAll?.config },
      handler,
    });
  };
  // The route pattern only matches: the original URL is what goes upstream. A literal `:` is
  // doubled (find-my-way's escape, for paths such as `/jobs/{id}:cancel`), and parameter names are
  // reduced to word characters (a `-` would end the name).
  const pattern = (path: string) =>
    path === '/'
      ? ''
      : path.replace(/:/g, '::').replace(/\{([^}]+)\}/g, (_m, name: string) => `:${name.replace(/\W/g, '_')}`);
  // HEAD goes upstream as HEAD beside GET (Fastify's own HEAD route would answer the GET's head
  // without the upstream's length).
  const forwarded = (declared: Iterable<string>) => {
    const methods = new Set(declared);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].filter((m) => !unforwarded.has(m) && scope.supportedMethods.includes(m));
  };
  for (const [path, documented] of byPath)
    route(base + pattern(path), path, { documented, methods: forwarded(documented.map((op) => op.method)) });
  // A version forwarded as it is: its documented routes are the thin data plane's too (a derived
  // version's translations stay on Fastify).
  if (!derived) addThinVersion(scope.server, version.name, { base, byMethod: routes.byMethod });
  if (byPath.has('/*')) return;
  const undocumented = forwardsUndocumented(options.forward, version.name);
  const catchAll = createCatchAll({
    base,
    version: version.name,
    routes,
    undocumented: undocumented ? forward : undefined,
  });
  // Not forwarding them, it takes every method but OPTIONS (the not-found handler's) and QUERY
  // where no document declares it (Fastify refuses one without a body first): a 404 whatever the method.
  const declared = routes.operations.map((op) => op.method);
  const methods = undocumented
    ? forwarded(declared)
    : scope.supportedMethods.filter((m) => m !== 'OPTIONS' && (m !== 'QUERY' || declared.includes(m)));
  route(`${base}/*`, '/*', { documented: [], methods, catchAll });
}

/** Methods a forwarding route never takes of a document: OPTIONS is answered here, TRACE never served. */
const unforwarded = new Set(['OPTIONS', 'TRACE']);

type CatchAll = ReturnType<typeof createCatchAll>;

/** The handler of a version's routes: `routed` is the version's base path (`/api/v2`), and nothing outside it goes upstream. */
function createForwarder(
  options: ForwardOptions & { pool: Dispatcher; host: string; vendor: string; derivedRoute?: DerivedVersionRoute },
  routed: string,
): (request: FastifyRequest, reply: FastifyReply, operation?: OperationSpec) => void {
  const within = `${routed}/`;
  const listOf = createUpstreamHeaders({
    host: options.host,
    underscores: options.underscoresInHeaders === true,
    ...(options.withheldHeaders ? { withheld: options.withheldHeaders } : {}),
    ...(options.setHeaders ? { set: options.setHeaders } : {}),
    ...(options.forwardedHeaders ? { forwarded: options.forwardedHeaders } : {}),
  });
  const hook = options.requestHeaders;
  const requestHeaders = hook ? (request: FastifyRequest) => hook(headersOfList(listOf(request)), request) : listOf;
  const { refuse, derivedRoute: derived } = options;
  const checks = derived ? createResponseChecks() : undefined;
  return (request, reply, operation) => {
    if (refuse) return sendProblem(reply, refuse());
    // The last word that nothing outside the version goes upstream (the strict-target step came
    // first). An absolute-form target goes in origin form: its authority is not the upstream's.
    const url = request.url[0] === '/' ? request.url : originFormOf(request.url);
    const target = pathOf(url);
    if (target !== routed && !target.startsWith(within))
      return sendProblem(
        reply,
        new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The request path is not canonical.' }),
      );
    // A stray `%` or a Latin-1 escape such as `%E9` is no target an upstream framework decodes
    // alike: a 400 problem.
    if (targetUndecodable(url)) return sendProblem(reply, undecodableTargetProblem());
    if (derived && operation && checks) {
      const call = { request, reply, route: derived, operation, pool: options.pool, url, routed, checks };
      const headers = headersOfList(requestHeaders(request) as HeaderList);
      return void forwardDerived({ ...call, headers, vendor: options.vendor }).catch((error: Error) =>
        upstreamFailed(reply, error),
      );
    }
    callUpstream(options.pool, reply, { path: url, headers: requestHeaders(request) });
  };
}
