import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildDeprecationManifest, deprecationManifestType } from '../../core/lifecycle/index.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleRuntime } from './runtime.ts';
import { usable } from './runtime-state.ts';
import { manifestUrlOf } from './manifest-url.ts';

/** The manifest's body and entity tag, built once per lifecycle generation. */
interface Built {
  generation: number;
  body: string;
  etag: string;
}

/**
 * `GET <prefix>/deprecations`: the API's deprecation manifest (`application/deprecations+json`).
 * Open like the documents (no key), and cacheable: the body is built once per lifecycle
 * generation, and its strong ETag is a hash of those bytes, so every instance that shares a
 * lifecycle tags it alike and a restart with another config never answers 304 to a stale copy.
 * The caching step sends `Cache-Control` and answers a matching `If-None-Match` with 304.
 */
function registerManifestRoute(app: FastifyInstance, options: { runtime: LifecycleRuntime; prefix: string }): void {
  const { runtime, prefix } = options;
  let built: Built | undefined;
  const current = (): Built => {
    const generation = runtime.generation();
    if (built?.generation === generation) return built;
    const manifest = buildDeprecationManifest({
      prefix,
      versions: runtime.versions(),
      endpoints: runtime
        .endpointDeprecations()
        .map((e) => ({ ...e, migrationUrl: usable(e.migrationUrl) ?? runtime.migrationUrl(e.version) })),
      elements: runtime.elements(),
    });
    const body = JSON.stringify(manifest);
    built = { generation, body, etag: `"dm-${hash('sha256', body, 'base64url').slice(0, 27)}"` };
    return built;
  };
  app.get(manifestUrlOf(prefix), async (_request, reply) => {
    const { body, etag } = current();
    return reply.type(deprecationManifestType).header('etag', etag).serializer(String).send(body);
  });
}

/** The deprecation manifest: in the lifecycle part, so it is served with the portal off, by the gateway too. */
export const manifestFeature: ServiceFeature = {
  name: 'deprecation-manifest',
  install: ({ app, runtime, api }) => registerManifestRoute(app, { runtime, prefix: api.prefix }),
};
