import { withPublishedNames, type ApiVersion } from '../../core/versions/index.ts';

// `query` is OpenAPI 3.2's QUERY operation, `x-query` the extension a 3.1 document names it by.
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query', 'x-query'];
const methodOf = (key: string) => (key === 'x-query' ? 'QUERY' : key.toUpperCase());

/**
 * A derived version's OpenAPI document: the newer version's own (its descriptions, parameters and
 * examples kept), with the older version's component schemas, only the operations the older
 * version routes, and paths relative to the version base (the gateway serves each document with
 * its own `servers`). It is what `defineVersions` derives in-process, written into the document
 * the upstream's team maintains.
 */
export function derivedDocument(options: {
  root: Record<string, unknown>;
  /** `/api/v2`: the newer document's paths may be written below it. */
  rootBase: string;
  version: ApiVersion;
}): Record<string, unknown> {
  const { version, rootBase } = options;
  const doc = structuredClone(options.root);
  const routed = new Set(version.operations.map((op) => `${op.method} ${op.path}`));
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    const relative = path === rootBase ? '/' : path.startsWith(`${rootBase}/`) ? path.slice(rootBase.length) : path;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item ?? {}))
      if (!methods.includes(key) || routed.has(`${methodOf(key)} ${relative}`)) kept[key] = value;
    if (Object.keys(kept).some((key) => methods.includes(key))) paths[relative] = kept;
  }
  const components = (doc.components ?? {}) as Record<string, unknown>;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  // Renamed schemas under this version's names (`schema-renamed`), in the paths' references too.
  return withPublishedNames(
    {
      ...doc,
      info: { ...info, version: version.name },
      paths,
      components: { ...components, schemas: structuredClone(version.schemas) },
    },
    version.names,
  );
}
