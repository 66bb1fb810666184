import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { toHtml, toJson, toMarkdown } from '../../core/guide/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import { buildServiceGuide } from './guide.ts';
import type { LifecycleRuntime } from './runtime.ts';

/** Each deprecated version's migration guide, as HTML, Markdown or JSON by `Accept`. */
export function registerLifecycleRoutes(
  app: FastifyInstance,
  options: { bundle: VersionBundle; runtime: LifecycleRuntime; clock: Clock; prefix: string; title: string },
): void {
  const { bundle, runtime, clock, prefix, title } = options;
  // A guide is a diff of two documents: built once per lifecycle state, not per request.
  const cache = new Map<string, ReturnType<typeof buildServiceGuide>>();
  app.get(`${prefix}/versions/:name/migration-guide`, async (request, reply) => {
    const from = (request.params as { name: string }).name;
    const entry = runtime.document().versions.find((v) => v.name === from);
    const elements = runtime.elements().filter((e) => e.version === from);
    const endpoints = runtime.endpointDeprecations().filter((e) => e.version === from);
    const key = JSON.stringify([from, entry?.deprecatedAt, entry?.sunsetAt, entry?.replacement, elements, endpoints]);
    let guide = cache.get(key);
    if (!guide) {
      guide = buildServiceGuide({ bundle, runtime, from, now: clock.now(), title });
      if (cache.size >= 64) cache.clear();
      cache.set(key, guide);
    }
    reply.header('vary', 'Accept');
    const kind = guideFormat(request);
    if (kind === 'markdown')
      return reply.type('text/markdown; charset=utf-8').serializer(String).send(toMarkdown(guide));
    if (kind === 'json') return reply.type('application/json; charset=utf-8').serializer(String).send(toJson(guide));
    return reply.type('text/html; charset=utf-8').serializer(String).send(toHtml(guide));
  });
}

function guideFormat(request: FastifyRequest): 'markdown' | 'json' | 'html' {
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (accept.includes('text/markdown')) return 'markdown';
  if (accept.includes('text/html')) return 'html';
  if (accept.includes('json')) return 'json';
  return 'html';
}
