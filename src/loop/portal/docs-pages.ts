import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { assetPath } from './assets.ts';
import { DeprecatedElements, DeprecatedEndpoints, DeprecationBanner } from './deprecation-banner.ts';
import { html, isoDay, sendPage } from './html.ts';
import { Layout } from './layout.ts';
import { describeVersions, type VersionInfo } from '../lifecycle/version-info.ts';
import { apiCatalogProfile, apiCatalogType, toApiCatalog } from '../../core/portal/index.ts';
import { isoInstant } from './feeds.ts';
import { manifestUrlOf } from '../lifecycle/manifest-url.ts';
import type { DashboardOptions } from './dashboard/options.ts';

/** `/docs` and `/docs/<version>`: Swagger UI under a server-rendered deprecation banner. */
export function registerDocsPages(app: FastifyInstance, options: DashboardOptions): void {
  app.get('/docs', async (_request, reply) => {
    const versions = describeVersions(options);
    return sendPage(
      reply,
      html`<${Layout} title="API documentation" site=${options.title}>
      <h1>${options.title}: documentation</h1>
      <p>Every version of the ${options.title}, its lifecycle and its reference. Subscribe to the <a href="/changelog.atom">changelog feed</a> to hear of deprecations first.</p>
      <ul class="versions">${versions.map((v) => html`<${VersionCard} version=${v} />`)}</ul>
    </${Layout}>`,
    );
  });
  app.get('/docs/:version', async (request, reply) => {
    const name = (request.params as { version: string }).version;
    const version = describeVersions(options).find((v) => v.name === name);
    if (!version)
      throw new VersionaryError({
        code: ErrorCode.NotFound,
        detail: `No documentation for ${name.slice(0, 40)}: see /docs for the versions.`,
      });
    return sendPage(
      reply,
      html`<${Layout} title=${`API reference ${version.name}`} site=${options.title} styles=${[`${assetPath}/swagger-ui.css`]}
        scripts=${version.served ? [`${assetPath}/swagger-ui-bundle.js`, `${assetPath}/docs.js`] : []}>
      <h1>API reference: ${version.name}</h1>
      ${[DeprecationBanner, DeprecatedEndpoints, DeprecatedElements].map((part) => part({ version, now: options.clock.now() }))}
      <ul class="links" aria-label="About this version">
        <li><a href=${version.openapiUrl}>OpenAPI document (JSON)</a></li>
        ${version.guideUrl && html`<li><a href=${version.guideUrl}>Migration guide</a></li>`}
        <li><a href="/docs/changelog">Changelog</a></li>
      </ul>
      ${
        version.served
          ? html`<div id="reference" class="reference" data-openapi=${version.openapiUrl}>
              <noscript
                ><p>
                  The interactive reference needs JavaScript; the
                  <a href=${version.openapiUrl}>OpenAPI document</a> holds the same.
                </p></noscript
              >
            </div>`
          : html`<p>${version.name} has been removed; its reference is no longer served.</p>`
      }
    </${Layout}>`,
    );
  });
}

function VersionCard(props: { version: VersionInfo }) {
  const v = props.version;
  return html`<li>
    <h2><a href=${v.docsUrl}>${v.name}</a> <span class=${`status ${v.status}`}>${v.status.replace('_', ' ')}</span></h2>
    <p class="muted">
      ${[
        ...(v.releasedAt !== undefined ? [`Released ${isoDay(v.releasedAt)}`] : []),
        ...(v.sunsetAt !== undefined ? [`sunset ${isoDay(v.sunsetAt)}`] : []),
        ...(v.replacement ? [`replaced by ${v.replacement}`] : []),
      ].join(' · ')}
    </p>
    <ul class="links">
      <li><a href=${v.docsUrl}>Reference</a></li>
      <li><a href=${v.openapiUrl}>OpenAPI</a></li>
      ${v.guideUrl && html`<li><a href=${v.guideUrl}>Migration guide</a></li>`}
    </ul>
  </li>`;
}

const catalogUrl = '/.well-known/api-catalog';

/** `/.well-known/api-catalog` (RFC 9727); HEAD, derived from GET, carries the same `Link` header. */
export function registerApiCatalogRoute(app: FastifyInstance, options: DashboardOptions): void {
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
