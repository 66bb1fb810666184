import { operationsReaching, type DiffContext } from './diff-context.ts';
import type { Change } from './types.ts';

// An HTTP method token (RFC 9110), as `additionalOperations` spells it, then the path.
const PATH_OPERATION = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/.*)$/;

/**
 * Changes as a client acts on them. A change found once inside a shared component schema names
 * every operation that reaches it (all of them, so a reader can act on each), and one reached
 * by a single operation is located at that operation. Two schemas that change alike at the same
 * place for the same operations (a list schema and its `?fields=` twin in one `anyOf`) are the
 * same change to those operations, so it counts once.
 */
export function perOperation(ctx: DiffContext): Change[] {
  const cache = new Map<string, { ops: string[]; names: string }>();
  const out: Change[] = [];
  const seen = new Set<string>();
  for (const change of ctx.changes) {
    const owner = ctx.ownerOf.get(change);
    if (owner === undefined || change.location.method !== undefined) {
      out.push(change);
      continue;
    }
    let reach = cache.get(owner);
    if (reach === undefined) {
      const reaching = operationsReaching(ctx, owner).filter((op) => op.includes(' '));
      cache.set(owner, (reach = { ops: reaching, names: reaching.join(',') }));
    }
    const { ops } = reach;
    if (ops.length === 0) {
      out.push(change);
      continue;
    }
    // Within a schema the place is the pointer below the schema's name.
    const inSchema = change.location.pointer.replace(/^\/components\/schemas\/[^/]+/, '');
    const key = `${change.id}|${reach.names}|${change.location.document ?? ''}#${inSchema}|${JSON.stringify(change.oldValue)}|${JSON.stringify(change.newValue)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(located(change, ops));
  }
  return out;
}

function located(change: Change, ops: string[]): Change {
  const single = ops.length === 1 ? PATH_OPERATION.exec(ops[0] as string) : null;
  if (single !== null) {
    const { via: _via, operations: _ops, operationCount: _count, ...rest } = change.location;
    return { ...change, location: { ...rest, method: single[1] as string, path: single[2] as string } };
  }
  return { ...change, location: { ...change.location, operations: ops, operationCount: ops.length } };
}
