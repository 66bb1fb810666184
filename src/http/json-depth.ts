/**
 * Bodies a derived version translates are nested at most this deep: the migrations, the
 * validator and the member walk recurse along the body, and a body 5,000 deep would overflow
 * their stack. Records of an API sit a few levels down; a tree of comments 128 deep is rare.
 */
export const jsonDepthLimit = 128;

/** Whether a parsed JSON value nests arrays and objects deeper than `limit`, told without recursion. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
