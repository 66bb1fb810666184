import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { buildDeprecationManifest, deprecationManifestType } from '../../core/lifecycle/index.ts';
import type { ClientStore } from '../../kernel/ports/index.ts';
import { lifecycleClientOf } from '../../kernel/ports/principal.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleRuntime } from './runtime.ts';
import { usable } from './runtime-verdict.ts';
import { manifestUrlOf } from './manifest-url.ts';
import type { LifecycleContext } from './context.ts';

const etagOf = (body: string) => `"dm-${hash('sha256', body, 'base64url').slice(0, 27)}"`;

/**
 * `GET <prefix>/deprecations`, open and cacheable: built once per lifecycle generation, with a strong
 * ETag hashed from its bytes, so instances tag it alike and a restart never answers 304 to a stale copy.
 * A client with a minimum version gets its own view. Served with the portal off, by the gateway too.
 */
export const manifestFeature: ServiceFeature<LifecycleContext> = {
  name: 'deprecation-manifest',
  install: (context) => {
    const { app, runtime } = context;
    const { prefix } = context.api;
    const options = { runtime, clients: context.storage.clients };
    let built: { generation: number; manifest: object; body: string; etag: string } | undefined;
    const current = () => {
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
      built = { generation, manifest, body, etag: etagOf(body) };
      return built;
    };
    app.get(manifestUrlOf(prefix), async (request, reply) => {
      const shared = current();
      const { body, etag } = (await ownView(request, shared, options)) ?? shared;
      // A caller with a credential may be answered its own view: a cache keeps one per credential.
      reply.header('vary', 'Authorization, X-API-Key');
      return reply.type(deprecationManifestType).header('etag', etag).serializer(String).send(body);
    });
  },
};

/** The manifest with a `client` member (its minimum, the versions retired for it alone), for a client that has one. */
async function ownView(
  request: FastifyRequest,
  shared: { manifest: object; body: string; etag: string },
  options: { runtime: LifecycleRuntime; clients: Pick<ClientStore, 'find'> },
): Promise<{ body: string; etag: string } | undefined> {
  const client = lifecycleClientOf(request);
  const minimum = client === undefined ? undefined : (await options.clients.find(client))?.minimumVersion;
  const versions = options.runtime.versions().map((v) => v.name);
  const at = minimum === undefined ? -1 : versions.indexOf(minimum);
  // A minimum the API no longer knows retires nothing, as the rule reads it.
  if (at === -1) return undefined;
  const retired = versions.slice(0, at);
  const body = JSON.stringify({ ...shared.manifest, client: { id: client, minimumVersion: minimum, retired } });
  return { body, etag: etagOf(body) };
}
