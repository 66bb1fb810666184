/** A node somewhere in a set of documents. */
export interface DocNode {
  /** Absolute URI of the document holding the node. */
  uri: string;
  /** JSON pointer of the node inside that document ('' for the root). */
  pointer: string;
  value: unknown;
}

/** Escape one JSON pointer token (RFC 6901). */
function escapePointerToken(token: string): string {
  // Most tokens need no escape; checking first spares two string copies per token.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Split a JSON pointer (with or without a leading `#`) into unescaped tokens. */
export function parsePointer(pointer: string): string[] {
  const raw = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (raw === '' || raw === '/') return raw === '/' ? [''] : [];
  const decoded = safeDecode(raw);
  return decoded
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  let out = base;
  for (const t of tokens) out += '/' + escapePointerToken(String(t));
  return out;
}

/** Read the value a pointer designates, or `undefined` when any step is missing. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The node holding `value` at `tokens` below `node`, in the same document. */
export function nodeAt(
  node: { uri: string; pointer: string },
  value: unknown,
  ...tokens: (string | number)[]
): DocNode {
  return { uri: node.uri, pointer: joinPointer(node.pointer, ...tokens), value };
}
