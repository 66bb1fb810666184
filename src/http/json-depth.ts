/**
 * Bodies a derived version translates are nested at most this deep: the migrations, the
 * validator and the member walk recurse along the body, and a body 5,000 deep would overflow
 * their stack. Records of an API sit a few levels down; a tree of comments 128 deep is rare.
 */
export const jsonDepthLimit = 128;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit`. It recurses, but never
 * past `limit` levels (it answers as soon as it gets there), so the stack stays small whatever the
 * value; and it allocates nothing, being walked on every translated body.
 */
export function deeperThan(value: unknown, limit: number, depth = 1): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth > limit) return true;
  if (Array.isArray(value)) {
    for (const element of value) if (deeperThan(element, limit, depth + 1)) return true;
    return false;
  }
  // A parsed value's members are all its own (JSON.parse makes `__proto__` one, too).
  for (const key in value) if (deeperThan((value as Record<string, unknown>)[key], limit, depth + 1)) return true;
  return false;
}
