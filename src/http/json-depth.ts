/** Bodies a derived version translates nest at most this deep: the migrations recurse along the body. */
export const jsonDepthLimit = 128;

/** Whether a parsed JSON value nests deeper than `limit`; it recurses at most `limit` levels. */
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
