import type { FastifyInstance } from 'fastify';
import { apiCatalogProfile, apiCatalogType, toApiCatalog } from '../../core/portal/index.ts';
import type { DocsPagesOptions } from './docs-pages.ts';
import { isoInstant } from './json-feed.ts';
import { describeVersions } from '../lifecycle/version-info.ts';
import { manifestUrlOf } from '../lifecycle/manifest-url.ts';

const catalogUrl = '/.well-known/api-catalog';

/** `/.well-known/api-catalog` (RFC 9727); HEAD, derived from GET, carries the same `Link` header. */
export function registerApiCatalogRoute(app: FastifyInstance, options: DocsPagesOptions & { prefix: string }): void {
  app.get(catalogUrl, async (_request, reply) => {
    const versions = describeVersions(options).map((v) => ({
      name: v.name,
      base: `${options.prefix}/${v.name}`,
      openapiUrl: v.openapiUrl,
      docsUrl: v.docsUrl,
      statusUrl: `${options.prefix}/versions`,
      status: v.status,
      ...(v.guideUrl ? { guideUrl: v.guideUrl } : {}),
      ...(v.sunsetAt !== undefined ? { sunsetAt: isoInstant(v.sunsetAt) } : {}),
    }));
    return reply
      .type(apiCatalogType)
      .header(
        'link',
        `<${catalogUrl}>; rel="api-catalog"; type="application/linkset+json"; profile="${apiCatalogProfile}"`,
      )
      .serializer(JSON.stringify)
      .send(toApiCatalog({ catalogUrl, versions, manifestUrl: manifestUrlOf(options.prefix) }));
  });
}
