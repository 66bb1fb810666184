import { deprecationManifestType } from '../lifecycle/index.ts';

/** One link target of a linkset (RFC 9264, section 4.2.4). */
interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
}

/** A link context object: an anchor and its links, keyed by relation type. */
type LinkContext = { anchor: string } & Record<string, string | LinkTarget[]>;

/** An API catalog document (RFC 9727): a linkset in JSON (RFC 9264). */
export interface ApiCatalog {
  linkset: LinkContext[];
}

/** What the catalog says about one version. */
export interface CatalogVersion {
  name: string;
  /** Base of the version's resources, for example `/api/v1`. */
  base: string;
  openapiUrl: string;
  docsUrl: string;
  /** The lifecycle document that states the version's status. */
  statusUrl: string;
  status: string;
  /** Set for a deprecated version: its migration guide. */
  guideUrl?: string;
  sunsetAt?: string;
}

/** Media type and profile of an RFC 9727 catalog. */
export const apiCatalogProfile = 'https://www.rfc-editor.org/info/rfc9727';
export const apiCatalogType = `application/linkset+json; profile="${apiCatalogProfile}"`;

/**
 * The API catalog: a first context anchored at the catalog lists each version with `item` and
 * links the API's deprecation manifest (`deprecation`, typed `application/deprecations+json`:
 * every deprecation of every version, so it belongs to no one version), then one context per version links its OpenAPI document (`service-desc`), its docs (`service-doc`), its
 * lifecycle status (`status`) and, once deprecated, its migration guide (`deprecation`, RFC 9745,
 * and `sunset`, RFC 8594). References are relative to the catalog's own URL.
 */
export function toApiCatalog(options: {
  catalogUrl: string;
  versions: readonly CatalogVersion[];
  /** The API's deprecation manifest, when it serves one. */
  manifestUrl?: string;
}): ApiCatalog {
  const index: LinkContext = {
    anchor: options.catalogUrl,
    item: options.versions.map((v) => ({ href: v.base, title: `API ${v.name}` })),
  };
  if (options.manifestUrl)
    index.deprecation = [
      { href: options.manifestUrl, type: deprecationManifestType, title: 'Deprecation manifest of the API' },
    ];
  const contexts = options.versions.map((v): LinkContext => {
    const context: LinkContext = {
      anchor: v.base,
      'service-desc': [
        { href: v.openapiUrl, type: 'application/vnd.oai.openapi+json', title: `OpenAPI document of ${v.name}` },
      ],
      'service-doc': [{ href: v.docsUrl, type: 'text/html', title: `API reference of ${v.name}` }],
      status: [{ href: v.statusUrl, type: 'application/json', title: `${v.name} is ${v.status}` }],
    };
    if (v.guideUrl) {
      context.deprecation = [{ href: v.guideUrl, type: 'text/html', title: `Migration guide from ${v.name}` }];
      if (v.sunsetAt)
        context.sunset = [{ href: v.guideUrl, type: 'text/html', title: `${v.name} is removed at ${v.sunsetAt}` }];
    }
    return context;
  });
  return { linkset: [index, ...contexts] };
}
