import type { DiffContext, DocNode } from './diff-context.ts';
import { joinPointer } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import type { ResolvedPair } from './diff-pair.ts';
import { isObjectLike } from './schema-model.ts';

/**
 * A value whose type changed (a bare array wrapped in `{ data, meta }`) is not compared deeper,
 * but a named schema it held before and still holds (the list's `User` items) reaches the same
 * clients: its own changes are compared, so a field added to `User` names the list operation too.
 */
export function compareSharedRefs(ctx: DiffContext, p: ResolvedPair): void {
  const before = namedRefs(ctx.old.resolver, p.o);
  const after = namedRefs(ctx.new.resolver, p.n);
  for (const [name, old] of before) {
    const revised = after.get(name);
    if (revised !== undefined) p.recurse(ctx, { old, new: revised, direction: p.direction, label: name });
  }
}

/** The `$ref`s written inside a schema (without following them), by the component they name. */
function namedRefs(resolver: RefResolver, root: DocNode): Map<string, DocNode> {
  const found = new Map<string, DocNode>();
  const walk = (node: DocNode, depth: number): void => {
    if (!isObjectLike(node.value) || depth > 8) return;
    if (typeof node.value.$ref === 'string' && depth > 0) {
      const name = resolver.resolve(node).name;
      if (name !== undefined && !found.has(name)) found.set(name, node);
      return;
    }
    for (const [key, value] of Object.entries(node.value)) {
      if (key === 'examples' || key === 'example' || key === 'default' || key === 'enum' || key === 'const') continue;
      if (typeof value === 'object' && value !== null)
        walk({ uri: node.uri, pointer: joinPointer(node.pointer, key), value }, depth + 1);
    }
  };
  walk(root, 0);
  return found;
}
