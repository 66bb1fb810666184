import { baseUriOf, localTarget, resolveRefUri } from './ref-resolver.ts';
import { pointerOf, walkObjects } from './walk-objects.ts';

/** A `$ref` that points into another document. */
export interface ExternalRef {
  /** Absolute URI of the document the ref needs. */
  target: string;
  /** The ref as written. */
  ref: string;
  /** JSON pointer of the `$ref` inside the referring document. */
  at: string;
}

/**
 * Find the refs of a parsed document that point into other documents, so a loader can fetch
 * them.
 */
export function collectExternalRefs(doc: unknown, uri: string): ExternalRef[] {
  const out: ExternalRef[] = [];
  // With a `$self` (OpenAPI 3.2) refs resolve against it, and what sits under its folder is read
  // from beside the document.
  const base = baseUriOf(doc, uri);
  walkObjects(doc, (record, at) => {
    if (typeof record.$ref === 'string' && !record.$ref.startsWith('#')) {
      const { uri: named } = resolveRefUri(record.$ref, base);
      const target = named === base ? uri : localTarget(named, base, uri);
      if (target !== uri) out.push({ target, ref: record.$ref, at: pointerOf(at) });
    }
  });
  return out;
}
