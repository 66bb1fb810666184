import type { DocumentSet } from './document-set.ts';
import { createRefResolver } from './ref-resolver.ts';
import { pointerOf, walkObjects } from './walk-objects.ts';

/**
 * Check that every `$ref` of every document in the set resolves, so a broken ref fails before
 * any comparison starts, naming the document and the place. Throws `REF_BROKEN`.
 */
export function assertRefsResolve(set: DocumentSet): void {
  const resolver = createRefResolver(set);
  for (const [uri, doc] of set.documents) {
    // Where a ref leads depends on its document and its text alone, so each is checked once.
    const checked = new Set<string>();
    walkObjects(doc, (record, at) => {
      if (typeof record.$ref !== 'string' || checked.has(record.$ref)) return;
      resolver.resolve({ uri, pointer: pointerOf(at), value: record });
      checked.add(record.$ref);
    });
  }
}
