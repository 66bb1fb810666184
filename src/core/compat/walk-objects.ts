import { escapePointerToken } from './json-pointer.ts';

/** An object met by {@link walkObjects}: its place is kept as a chain and spelled only on demand. */
export interface WalkEntry {
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
export function walkObjects(root: unknown, visit: (record: Record<string, unknown>, at: WalkEntry) => void): void {
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
export function pointerOf(entry: WalkEntry): string {
  const tokens: string[] = [];
  for (let at: WalkEntry | undefined = entry; at?.parent !== undefined; at = at.parent) tokens.push(at.token);
  let out = '';
  for (let i = tokens.length - 1; i >= 0; i--) out += '/' + escapePointerToken(tokens[i] as string);
  return out;
}
