import type { VersionBundle } from '../core/versions/index.ts';
import { apiPrefix, builtInReleases, vendor } from '../kernel/app/names.ts';
import { configError } from '../kernel/config/load-config.ts';
import type { ServiceConfig } from '../loop/settings.ts';
import type { LoopProduct } from '../loop/product.ts';
import type { LoopLifecycleOptions } from '../loop/lifecycle/options.ts';
import { createApiBundle } from './api/index.ts';
import { referenceHandlers } from './resources/feature.ts';
import { sendHomePage } from '../loop/portal/home-page.ts';
import { prefersHtml } from '../loop/portal/prefers-html.ts';
import type { ServiceFeature } from '../loop/host/feature.ts';
import type { ApiDocumentInfo } from '../loop/host/api-info.ts';
import type { LifecycleContext } from '../loop/lifecycle/context.ts';

/** The reference service as a product: users and posts, built-in release dates and the `/` page. */
export function referenceProduct(
  overrides: { bundle?: VersionBundle; handlers?: NonNullable<LoopLifecycleOptions['handlers']> } = {},
): LoopProduct {
  return {
    bundle: overrides.bundle ?? createApiBundle(),
    api: { prefix: apiPrefix, vendor, title: 'Versionary users and posts API', info: referenceApiInfo },
    source: { handlers: overrides.handlers ?? referenceHandlers },
    defaults: { releases: builtInReleases },
    features: [rootFeature],
  };
}

/** The reference service's product for a configuration: one with a gateway section is refused. */
export async function composeReference(config: ServiceConfig): Promise<LoopProduct> {
  if (config.settings.gateway)
    throw configError([
      'The config file has a "gateway" section: start it with `versionary gateway`, not the reference service.',
    ]);
  return referenceProduct();
}

/** What the reference service's version documents say of its API (an app's say what the app gave). */
const referenceApiInfo = (version: string): ApiDocumentInfo => ({
  description: `Version ${version} of the users-and-posts API. Errors are RFC 9457 problems (\`application/problem+json\`); the machine-readable lifecycle of every version is at \`/api/versions\`.`,
  license: { name: 'MIT', identifier: 'MIT' },
});

/** `/healthz`, and `/`: the service's name and its versions, as a page for a browser. */
const rootFeature: ServiceFeature<LifecycleContext> = {
  name: 'root',
  install: ({ app, runtime, bundle, api }) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/', async (request, reply) => {
      const versions = runtime.document().versions;
      reply.header('vary', 'Accept');
      if (prefersHtml(request.headers.accept)) return sendHomePage(reply, { versions, site: api.title });
      return {
        name: 'Versionary reference service',
        versions: versions.map((v) => ({
          name: v.name,
          state: v.state,
          removed: v.state === 'removed',
          base: `${api.prefix}/${v.name}`,
          openapi: bundle.get(v.name) ? `${api.prefix}/${v.name}/openapi.json` : null,
        })),
      };
    });
  },
};
