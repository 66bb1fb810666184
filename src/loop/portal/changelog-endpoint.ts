import type { EndpointDeprecation } from '../../kernel/ports/index.ts';
import { safeHref } from './html.ts';

/**
 * An endpoint deprecation as a changelog shows it, the public one and a client's own alike: its
 * dates, and its guide, its own migration URL when that is safe to link, else `versionGuide`.
 */
export function toChangelogEndpoint(e: EndpointDeprecation, versionGuide?: string) {
  const guideUrl = safeHref(e.migrationUrl) ?? versionGuide;
  return {
    version: e.version,
    method: e.method,
    path: e.path,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    ...(guideUrl ? { guideUrl } : {}),
  };
}
