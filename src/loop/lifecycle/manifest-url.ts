import { deprecationManifestType } from '../../core/lifecycle/index.ts';

/** Where an API under `prefix` serves its deprecation manifest: `/api/deprecations`. */
export function manifestUrlOf(prefix: string): string {
  return `${prefix}/deprecations`;
}

/** The manifest's `Link`: `rel="deprecation"`, told from the guide by its `type`; untitled, unlike an element's. */
export function manifestLinkOf(prefix: string): string {
  return `<${manifestUrlOf(prefix)}>; rel="deprecation"; type="${deprecationManifestType}"`;
}
