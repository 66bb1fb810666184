import type { DocumentSet } from './document-set.ts';
import { joinPointer } from './json-pointer.ts';
import { baseUriOf, createRefResolver, localTarget, resolveRefUri } from './ref-resolver.ts';

/** An object met by {@link walkObjects}: its place is kept as a chain and spelled only on demand. */
interface WalkEntry {
  value: object;
  parent: WalkEntry | undefined;
  token: string;
}

/**
 * Visit every object and array of a parsed document, depth first, children in key order (last
 * pushed first). Iterative, so very deep documents cannot overflow the stack. The JSON pointer of
 * each place is built only when asked for ({@link pointerOf}): a 4 MB description has some 200,000
 * objects and only a few need naming.
 */
function walkObjects(root: unknown, visit: (record: Record<string, unknown>, at: WalkEntry) => void): void {
  if (root === null || typeof root !== 'object') return;
  const stack: WalkEntry[] = [{ value: root, parent: undefined, token: '' }];
  while (stack.length > 0) {
    const entry = stack.pop() as WalkEntry;
    const record = entry.value as Record<string, unknown>;
    visit(record, entry);
    for (const k in record) {
      // An own `__proto__` key (JSON.parse makes one) is not reached by indexing.
      const v = k === '__proto__' ? Object.getOwnPropertyDescriptor(record, k)?.value : record[k];
      if (typeof v === 'object' && v !== null) stack.push({ value: v as object, parent: entry, token: k });
    }
  }
}

/** The JSON pointer of a place met by {@link walkObjects} ('' for the root). */
function pointerOf(entry: WalkEntry): string {
  const tokens: string[] = [];
  for (let at: WalkEntry | undefined = entry; at?.parent !== undefined; at = at.parent) tokens.push(at.token);
  return joinPointer('', ...tokens.reverse());
}

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
