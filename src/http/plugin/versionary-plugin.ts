import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import {
  checkElementDeprecations,
  createConfigLifecycle,
  elementVerdict,
  type ElementDeprecation,
  type LifecycleSource,
} from '../../core/lifecycle/index.ts';
import { resolveVersion } from '../../core/negotiation/index.ts';
import {
  checkDeprecatedRemovals,
  deprecatedOperation,
  toOpenApiDocument,
  type OpenApiVersion,
  verdictDeprecation,
} from '../../core/versions/index.ts';
import { defaultSteps, provideSteps } from '../pipeline/listed-steps.ts';
import { hasDeprecation, stateOf } from '../pipeline/request-state.ts';
import { registerForwardedApi } from '../forwarded-api.ts';
import { forwardsUndocumented } from '../forwarded-catch-all.ts';
import { negotiationKey } from '../negotiation.ts';
import { installPrefixProblems, unversionedVaryKey } from '../problem-handling.ts';
import { removalDecision, removedGateKey, removedVersionOf, unroutedDecisionOf } from '../removed-gate.ts';
import { telemetryKey } from '../telemetry/telemetry-step.ts';
import { versionListHeadersKey } from '../version-list-headers.ts';
import { registerVersionedApi } from '../versioned-api.ts';
import type { ElementUseEvent, OperationCallListener } from '../versioned-api-options.ts';
import { DeprecationWarningCode, emitDeprecationWarning } from '../warnings.ts';
import { lifecycleHookOf } from './lifecycle-hooks.ts';
import { pluginSteps } from './steps.ts';
import {
  isLifecycleSource,
  reportUsage,
  resolvePluginOptions,
  type OpenApiDocumentBuilder,
  type ResolvedPluginOptions,
  type VersionaryPluginOptions,
} from './options.ts';

async function versionaryPlugin(app: FastifyInstance, options: VersionaryPluginOptions): Promise<void> {
  const o = resolvePluginOptions(options);
  const { bundle, prefix, vendor, clock } = o;
  if (!isLifecycleSource(o.lifecycle) && o.lifecycle.headerStyle === 'iso')
    emitDeprecationWarning(DeprecationWarningCode.HeaderStyleIso);
  if (!isLifecycleSource(o.lifecycle) && o.lifecycle.endpoints !== undefined)
    emitDeprecationWarning(DeprecationWarningCode.EndpointsKey);
  const lifecycle: LifecycleSource = isLifecycleSource(o.lifecycle)
    ? o.lifecycle
    : createConfigLifecycle({ config: o.lifecycle, clock, prefix, versions: bundle.versions.map((v) => v.name) });
  if ('warnings' in lifecycle && Array.isArray(lifecycle.warnings))
    for (const warning of lifecycle.warnings as Array<{ rule: string; detail: string }>)
      app.log.warn({ rule: warning.rule }, warning.detail);
  defaultSteps(app, pluginSteps, prefix);
  // In this order: without the loop's list, a phase's steps run in the order they are installed.
  provideSteps({ app, prefix }, [[negotiationKey, { prefix }]]);
  if (o.problems) provideSteps({ app, prefix }, [[unversionedVaryKey, {}]]);
  provideSteps({ app, prefix }, [
    [versionListHeadersKey, { lifecycle, versionListHeaders: o.versionListHeaders, prefix }],
    [removedGateKey, { lifecycle, prefix, clock, onRemovedCall: (call, request) => reportUsage(o, request, call) }],
    // The client on traces and the call counter: only one the app identifies, never the address.
    [telemetryKey, { prefix, clientOf: options.clientOf ?? options.clientIdOf }],
  ]);
  const onVersionedRequest = [lifecycleHookOf(app, o, lifecycle), ...o.onVersionedRequest];
  const onCall = o.onCall;
  const onOperationCall: OperationCallListener | undefined = onCall
    ? (request, version, endpoint) =>
        onCall({ version, endpoint, clientId: o.clientIdOf(request), at: o.clock.now() }, request)
    : undefined;
  const elements = checkedElements(o, lifecycle);
  const elementUses = elements.length > 0 ? { elements, onUse: elementStep(o, lifecycle) } : undefined;
  const registerRoutes = async (): Promise<void> => {
    const api = {
      bundle,
      prefix,
      vendor,
      onVersionedRequest,
      ...(onOperationCall ? { onOperationCall } : {}),
      ...(elementUses ? { elementUses } : {}),
    };
    if (o.forward) await registerForwardedApi(app, { ...api, forward: o.forward });
    else
      registerVersionedApi(app, {
        ...api,
        handlers: o.handlers,
        clientIdOf: o.clientIdOf,
        validateResponses: o.validateResponses,
      });
    if (o.openapi)
      registerOpenApiRoutes(app, {
        ...o,
        title: o.openapi.title,
        ...(o.openapi.document ? { document: o.openapi.document } : {}),
        openapiVersion: o.openapi.openapiVersion ?? '3.1',
        lifecycle,
      });
    const document = lifecycle.document?.bind(lifecycle);
    if (o.versionsDocument && document) app.get(`${prefix}/versions`, async () => document());
  };
  if (o.problems)
    await installPrefixProblems(
      app,
      {
        bundle,
        prefix,
        vendor,
        removedVersion: removedVersionOf(lifecycle),
        decided: unroutedDecisionOf(lifecycle, clock, o.clientOf),
        notFound: o.notFound,
        ...(o.forward ? { forwardsUndocumented: (v: string) => forwardsUndocumented(o.forward!, v) } : {}),
      },
      registerRoutes,
    );
  else await registerRoutes();
}

/** The lifecycle's deprecated fields and parameters, checked against the bundle at registration. */
function checkedElements(o: ResolvedPluginOptions, lifecycle: LifecycleSource): readonly ElementDeprecation[] {
  const elements = lifecycle.elements?.() ?? [];
  const problems = [
    ...(elements.length === 0
      ? []
      : checkElementDeprecations({ elements, versions: o.bundle.versions, audience: lifecycle.audience ?? 'public' })),
    // A field removed with `deprecatedFieldRemoved` must be the one its older version deprecated.
    ...checkDeprecatedRemovals({ bundle: o.bundle, elements }),
  ];
  if (problems.length === 0) return elements;
  throw new VersionaryError({
    code: ErrorCode.InvalidConfig,
    detail: `The lifecycle's field and parameter deprecations have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
    errors: problems.map((detail) => ({ pointer: '/lifecycle', detail })),
  });
}

/** A request that uses deprecated fields or parameters: each use is counted, then headers or a 400. */
function elementStep(
  o: ResolvedPluginOptions,
  lifecycle: LifecycleSource,
): (event: ElementUseEvent) => void | Promise<void> {
  const guideOf = (e: ElementDeprecation) =>
    e.migrationUrl ?? lifecycle.migrationUrl?.(e.version) ?? `${o.prefix}/versions`;
  const touches = lifecycle.elementTouches?.bind(lifecycle);
  const clientElements = lifecycle.clientElements?.bind(lifecycle);
  const apply = elementHeaders(o, lifecycle, guideOf);
  return (event) => {
    // Only an element with a grant past its sunset, or closed to new clients, asks for this
    // client's view of it; every other use goes on synchronously.
    if (touches && clientElements && event.used.some((e) => touches(e)))
      return clientElements(event.used, o.clientOf(event.request), guideOf).then((used) => apply({ ...event, used }));
    apply(event);
  };
}

function elementHeaders(
  o: ResolvedPluginOptions,
  lifecycle: LifecycleSource,
  guideOf: (e: ElementDeprecation) => string,
): (event: ElementUseEvent) => void {
  return ({ request, reply, version, operation, used }) => {
    const header = (name: string) => {
      const value = reply.getHeader(name);
      return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
    };
    const verdict = elementVerdict({
      used,
      clock: o.clock,
      style: lifecycle.headerStyle ?? 'iso8601',
      guideOf,
      current: {
        deprecation: header('deprecation'),
        sunset: header('sunset'),
        link: header('link'),
        warning: header('warning'),
      },
    });
    if (o.onUsage) {
      const endpoint = `${operation.method} ${operation.path}`;
      const base = { version: version.name, endpoint, clientId: o.clientIdOf(request), at: o.clock.now() };
      for (const e of used) o.onUsage({ ...base, element: e.element }, request);
    }
    const state = stateOf(request);
    state.deprecatedElements = used.map((e) => e.element);
    if ('removed' in verdict) {
      state.refused = true;
      state.decision = removalDecision(verdict.removed);
      throw verdict.removed;
    }
    if (hasDeprecation(verdict.headers)) state.deprecated = true;
    // The manifest after the elements' own links (a deprecated version's Link holds it already).
    const { manifestLink } = lifecycle;
    if (manifestLink && verdict.headers.link && !verdict.headers.link.includes(manifestLink))
      verdict.headers.link = `${verdict.headers.link}, ${manifestLink}`;
    reply.headers(verdict.headers);
  };
}

function registerOpenApiRoutes(
  app: FastifyInstance,
  o: ResolvedPluginOptions & {
    title: string;
    document?: OpenApiDocumentBuilder;
    openapiVersion: OpenApiVersion;
    lifecycle: LifecycleSource;
  },
): void {
  const supported = o.bundle.versions.map((v) => v.name);
  for (const version of o.bundle.versions) {
    app.get(`${o.prefix}/${version.name}/openapi.json`, async (request) => {
      resolveVersion({ pathVersion: version.number, accept: request.headers.accept, supported, vendor: o.vendor });
      // Built per request: deprecations and sunsets can change while the service runs.
      const deprecations = o.lifecycle.elements?.() ?? [];
      const guides = o.lifecycle.migrationUrl?.bind(o.lifecycle);
      const guideOf = guides ? { guideOf: (e: ElementDeprecation) => guides(e.version) } : {};
      const elements = deprecations.length > 0 ? { elements: { deprecations, now: o.clock.now(), ...guideOf } } : {};
      const verdict = (op: { method: string; path: string }) =>
        o.lifecycle.verdict({ version: version.name, method: op.method, path: op.path });
      const input = {
        version,
        title: o.title,
        basePath: `${o.prefix}/${version.name}`,
        openapiVersion: o.openapiVersion,
      };
      if (o.document) return o.document({ ...input, verdict, ...elements });
      return toOpenApiDocument({
        ...input,
        ...elements,
        // `deprecated`, `x-sunset`, the SDK generators' extensions, and the message as its description.
        annotate: (op) => {
          const facts = verdictDeprecation(verdict(op));
          return facts ? deprecatedOperation(undefined, facts) : {};
        },
      });
    });
  }
}

/**
 * The Versionary Fastify plugin: every operation of every version as its own validated route,
 * negotiation, RFC 9457 problems, lifecycle headers, 410 after the sunset, usage callbacks and each
 * version's OpenAPI document. A bad option fails `register` with every problem listed.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { versionary, versionRewriter } from 'versionary/fastify';
 *
 * const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'acme' }) });
 * await app.register(versionary, { bundle, handlers, vendor: 'acme', lifecycle: { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: 'https://acme.example/v2' } } } });
 * ```
 */
export const versionary = fp(versionaryPlugin, { fastify: '5.x', name: 'versionary' });
