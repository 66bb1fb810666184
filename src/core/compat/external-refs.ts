import { resolveRefUri } from './ref-resolver.ts';
import { escapePointerToken } from './json-pointer.ts';

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
 * them. Iterative, so very deep documents cannot overflow the stack.
 */
export function collectExternalRefs(doc: unknown, uri: string): ExternalRef[] {
  const out: ExternalRef[] = [];
  const stack: { value: unknown; at: string }[] = [{ value: doc, at: '' }];
  while (stack.length > 0) {
    const { value, at } = stack.pop() as { value: unknown; at: string };
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, at: `${at}/${i}` }));
      continue;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.$ref === 'string' && !record.$ref.startsWith('#')) {
      const { uri: target } = resolveRefUri(record.$ref, uri);
      if (target !== uri) out.push({ target, ref: record.$ref, at });
    }
    for (const [k, v] of Object.entries(record)) {
      if (typeof v === 'object' && v !== null) stack.push({ value: v, at: `${at}/${escapePointerToken(k)}` });
    }
  }
  return out;
}
