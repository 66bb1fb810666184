import { deprecationManifestType } from '../../core/lifecycle/index.ts';

/** Where an API under `prefix` serves its deprecation manifest: `/api/deprecations`. */
export function manifestUrlOf(prefix: string): string {
  return `${prefix}/deprecations`;
}

/**
 * The `Link` value that points at the manifest (draft-rmili-httpapi-deprecation-manifest: found
 * through the `deprecation` relation, told apart from the migration guide by its `type`). It has
 * no `title`: a titled `rel="deprecation"` names a deprecated element the request used.
 */
export function manifestLinkOf(prefix: string): string {
  return `<${manifestUrlOf(prefix)}>; rel="deprecation"; type="${deprecationManifestType}"`;
}
