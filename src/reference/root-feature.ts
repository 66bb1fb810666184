import { sendHomePage } from '../loop/portal/home-page.ts';
import { prefersHtml } from '../loop/portal/prefers-html.ts';
import type { ServiceFeature } from '../loop/host/feature.ts';
import type { LifecycleContext } from '../loop/lifecycle/context.ts';

/** `/healthz`, and `/`: the service's name and its versions, as a page for a browser. */
export const rootFeature: ServiceFeature<LifecycleContext> = {
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
