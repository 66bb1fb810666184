import { annotateElements, deprecatedOperation, verdictDeprecation } from '../../core/versions/index.ts';
import type { OpenApiDocumentBuilder } from '../../http/plugin/index.ts';
import { markEndpointDates } from './removed-document.ts';
import type { LifecycleRuntime } from './runtime.ts';

// `query` is OpenAPI 3.2's QUERY operation, `x-query` the extension a 3.1 document names it by.
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query', 'x-query'];
const methodOf = (key: string) => (key === 'x-query' ? 'QUERY' : key.toUpperCase());

/**
 * A proxied version's document as the gateway serves it: the configured document itself, its paths
 * below the version base (`servers`), marked as the service marks its own (lifecycle, elements, dates).
 */
export function gatewayDocumentBuilder(options: {
  documents: Record<string, Record<string, unknown>>;
  /** A version's lifecycle `info` members (a removed version's mark, the access dates), as the service marks its own. */
  info: (name: string) => Record<string, unknown>;
  /** Whose endpoint deprecations carry their access dates onto the operations. */
  runtime: Pick<LifecycleRuntime, 'endpointDeprecations'>;
}): OpenApiDocumentBuilder {
  return ({ version, basePath, verdict, elements }) => {
    const doc = structuredClone(options.documents[version.name] ?? {});
    const paths: Record<string, unknown> = {};
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
      const relative = path === basePath ? '/' : path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
      for (const method of methods) {
        const op = item?.[method] as Record<string, unknown> | undefined;
        if (!op || typeof op !== 'object') continue;
        const v = verdict({ method: methodOf(method), path: relative });
        if (v.deprecated) op.deprecated = true;
        const facts = verdictDeprecation(v);
        if (facts) item[method] = { ...op, ...deprecatedOperation(op.description, facts) };
      }
      paths[relative] = item;
    }
    // Relative: the document is read from the gateway, so its base resolves against the gateway's own origin.
    const info = { ...(doc.info as Record<string, unknown> | undefined), ...options.info(version.name) };
    const served = { ...doc, info, servers: [{ url: basePath }], paths };
    markEndpointDates(served, { runtime: options.runtime, version: version.name, basePath: '' });
    // Its paths are relative to the version base by now, as the elements' are.
    if (elements) annotateElements({ doc: served, version: version.name, basePath: '', elements });
    return served;
  };
}
