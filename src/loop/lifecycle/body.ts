import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { cachingKey } from '../../http/caching.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { securityHeadersKey } from '../../http/security-headers.ts';
import { registerProblemDocs } from '../../kernel/app/problem-docs.ts';
import { installOps } from '../../kernel/ops/install-ops.ts';
import { lifecycleClientOf } from '../../kernel/ports/principal.ts';
import type { ServiceFeature } from '../host/feature.ts';
import { manifestFeature } from './manifest-route.ts';
import { createResourcesFeature } from './api-feature.ts';
import { createForwardFeature } from './forward-feature.ts';
import { installFeatures } from '../host/install-features.ts';
import type { LoopState } from '../host/loop-state.ts';
import type { LoopLifecycleOptions } from './options.ts';
import { provideLifecycleRuntime, type LifecycleContext } from './context.ts';
import { toHtml, toJson, toMarkdown, type MigrationGuide } from '../../core/guide/index.ts';
import { buildServiceGuide } from './guide.ts';

/** The lifecycle part's features, in the order a request meets their hooks (the API's removed gate first). */
export async function installLoopLifecycle(
  scope: FastifyInstance,
  state: LoopState,
  options: LoopLifecycleOptions,
): Promise<void> {
  const { handlers, forward, ownsApp = false } = options;
  if (!handlers === !forward)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: forward
        ? 'versionary-loop-lifecycle takes handlers or forward, not both.'
        : 'versionary-loop-lifecycle needs handlers: one function per operation id of the bundle (or forward, to an upstream).',
    });
  const api = forward
    ? createForwardFeature(forward)
    : createResourcesFeature((context) => (typeof handlers === 'function' ? handlers(context) : handlers!), {
        ownsApp,
      });
  await provideLifecycleRuntime(scope, state.context);
  await installFeatures<LifecycleContext>(scope, state, {
    features: [api, opsFeature, securityFeature, cachingFeature, lifecycleRoutesFeature, manifestFeature],
    options: options.onVersionedRequest ? { onVersionedRequest: options.onVersionedRequest } : {},
  });
}

/** Probes, metrics, request ids and the shutdown state (`docs/operations.md`). */
const opsFeature: ServiceFeature<LifecycleContext> = {
  name: 'ops',
  install: ({ app, options, ops, storage, runtime, recorder, api }) => {
    installOps(app, {
      ...(options.ops ? { wiring: options.ops } : {}),
      ops,
      storage,
      runtime,
      recorder,
      apiPrefix: api.prefix,
      clientOf: lifecycleClientOf,
    });
  },
};

/** Security headers on every answer (problems come from the versionary plugin, in the resources feature). */
const securityFeature: ServiceFeature<LifecycleContext> = {
  name: 'security-headers',
  install: ({ app }) => provideSteps(app, [[securityHeadersKey, {}]]),
};

/** ETags and `Cache-Control` (private for anything that needs a credential), and the problem type pages. */
const cachingFeature: ServiceFeature<LifecycleContext> = {
  name: 'caching',
  install: ({ app, requiredRole }) => {
    provideSteps(app, [[cachingKey, { isPrivate: (request) => requiredRole(request) !== undefined }]]);
    registerProblemDocs(app);
  },
};

/** Each deprecated version's migration guide, as HTML, Markdown or JSON by `Accept`. */
const lifecycleRoutesFeature: ServiceFeature<LifecycleContext> = {
  name: 'lifecycle-routes',
  install: ({ app, bundle, runtime, clock, api }) => {
    // A guide is a diff of two documents: built once per lifecycle state, not per request.
    const cache = new Map<string, ReturnType<typeof buildServiceGuide>>();
    app.get(`${api.prefix}/versions/:name/migration-guide`, async (request, reply) => {
      const from = (request.params as { name: string }).name;
      const entry = runtime.document().versions.find((v) => v.name === from);
      const elements = runtime.elements().filter((e) => e.version === from);
      const endpoints = runtime.endpointDeprecations().filter((e) => e.version === from);
      const key = JSON.stringify([from, entry?.deprecatedAt, entry?.sunsetAt, entry?.replacement, elements, endpoints]);
      let guide = cache.get(key);
      if (!guide) {
        guide = buildServiceGuide({ bundle, runtime, from, now: clock.now(), title: api.title });
        if (cache.size >= 64) cache.clear();
        cache.set(key, guide);
      }
      reply.header('vary', 'Accept');
      const [type, render] = guideFormat(request);
      return reply.type(`${type}; charset=utf-8`).serializer(String).send(render(guide));
    });
  },
};

/** The guide's media type by `Accept` (Markdown, else HTML, else JSON, else HTML), and its renderer. */
function guideFormat(request: FastifyRequest): [string, (guide: MigrationGuide) => string] {
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (accept.includes('text/markdown')) return ['text/markdown', toMarkdown];
  if (accept.includes('json') && !accept.includes('text/html')) return ['application/json', toJson];
  return ['text/html', toHtml];
}
