import type { DocumentSet } from './document-set.ts';
import { escapePointerToken } from './json-pointer.ts';
import { createRefResolver } from './ref-resolver.ts';

/**
 * Check that every `$ref` of every document in the set resolves, so a broken ref fails before
 * any comparison starts, naming the document and the place. Throws `REF_BROKEN`.
 */
export function assertRefsResolve(set: DocumentSet): void {
  const resolver = createRefResolver(set);
  for (const [uri, doc] of set.documents) {
    const stack: { value: unknown; at: string }[] = [{ value: doc, at: '' }];
    while (stack.length > 0) {
      const { value, at } = stack.pop() as { value: unknown; at: string };
      if (value === null || typeof value !== 'object') continue;
      const record = value as Record<string, unknown>;
      if (typeof record.$ref === 'string') resolver.resolve({ uri, pointer: at, value });
      for (const [k, v] of Object.entries(record)) {
        if (typeof v === 'object' && v !== null) stack.push({ value: v, at: `${at}/${escapePointerToken(k)}` });
      }
    }
  }
}
