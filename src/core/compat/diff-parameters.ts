import { emit, matchKeys, type DiffContext } from './diff-context.ts';
import { compareSchemas } from './diff-schema.ts';
import { checkSunsetNotice, judgeRemoval } from './sunset.ts';
import { nodeAt, type DocNode } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import { isObjectLike } from './schema-model.ts';
import type { OperationEntry } from './openapi-document.ts';

interface Param {
  node: DocNode;
  name: string;
  in: string;
  required: boolean;
  value: Record<string, unknown>;
}

/**
 * Compare the parameters of one operation (path-level ones included). Path parameters match
 * by position in the template, so renaming `{id}` to `{userId}` is no change; header names
 * match case-insensitively.
 */
export function diffParameters(ctx: DiffContext, ops: { old: OperationEntry; new: OperationEntry }): void {
  matchKeys(collectParams(ctx.old.resolver, ops.old), collectParams(ctx.new.resolver, ops.new), {
    removed: (op) => {
      const removal = judgeRemoval(ctx, 'request-parameter', op.value);
      const message = `The ${op.in} parameter \`${op.name}\` was removed${removal.tail}.`;
      emit(ctx, removal.id, { at: op.node, side: 'old', direction: 'request', oldValue: op.name, message });
    },
    added: (np) => {
      const kind = np.required ? 'required' : 'optional';
      const message = `A new ${kind} ${np.in} parameter \`${np.name}\` was added.`;
      emit(ctx, `request-parameter-added-${kind}`, { at: np.node, direction: 'request', newValue: np.name, message });
    },
    both: (op, np) => compareParam(ctx, op, np),
  });
}

function compareParam(ctx: DiffContext, op: Param, np: Param): void {
  const base = { at: np.node, direction: 'request' as const };
  const what = `The ${np.in} parameter \`${np.name}\``;
  if (op.required !== np.required) {
    const kind = np.required ? 'required' : 'optional';
    const message = `${what} became ${kind}.`;
    emit(ctx, `request-parameter-became-${kind}`, { ...base, oldValue: op.required, newValue: np.required, message });
  }
  const oldStyle = styleOf(op);
  const newStyle = styleOf(np);
  if (oldStyle !== newStyle) {
    const message = `${what} is serialised differently (${oldStyle} to ${newStyle}).`;
    emit(ctx, 'request-parameter-style-changed', { ...base, oldValue: oldStyle, newValue: newStyle, message });
  }
  if (np.value.deprecated === true && op.value.deprecated !== true) {
    emit(ctx, 'request-parameter-deprecated', { ...base, newValue: true, message: `${what} was deprecated.` });
    checkSunsetNotice(ctx, { kind: 'request-parameter', element: np.value, at: np.node, what });
  }
  const os = schemaOf(op);
  const ns = schemaOf(np);
  if (os !== undefined && ns !== undefined)
    compareSchemas(ctx, { old: os, new: ns, direction: 'request', label: np.name });
}

function styleOf(p: Param): string {
  // A 3.2 `querystring` parameter has no style: its one `content` media type says how it is spelled.
  if (p.in === 'querystring') return isObjectLike(p.value.content) ? (Object.keys(p.value.content)[0] ?? '') : '';
  const form = p.in === 'query' || p.in === 'cookie';
  const style = typeof p.value.style === 'string' ? p.value.style : form ? 'form' : 'simple';
  const explode = typeof p.value.explode === 'boolean' ? p.value.explode : style === 'form';
  return `${style}${explode ? ', exploded' : ''}`;
}

function schemaOf(p: Param): DocNode | undefined {
  if (p.value.schema !== undefined) return nodeAt(p.node, p.value.schema, 'schema');
  if (isObjectLike(p.value.content)) {
    const [media, body] = Object.entries(p.value.content)[0] ?? [];
    if (media !== undefined && isObjectLike(body) && body.schema !== undefined) {
      return nodeAt(p.node, body.schema, 'content', media, 'schema');
    }
  }
  return undefined;
}

function collectParams(resolver: RefResolver, entry: OperationEntry): Map<string, Param> {
  const templateNames = [...entry.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const out = new Map<string, Param>();
  for (const { node, name, in: where, value } of declaredParameters(resolver, entry)) {
    // Only one `querystring` parameter may exist (OpenAPI 3.2) and its name is never sent.
    const key =
      where === 'path'
        ? `path#${templateNames.indexOf(name)}`
        : where === 'header'
          ? `header:${name.toLowerCase()}`
          : where === 'querystring'
            ? 'querystring'
            : `${where}:${name}`;
    out.set(key, { node, name, in: where, required: where === 'path' || value.required === true, value });
  }
  return out;
}

/**
 * The parameters an operation declares, its path item's first, each resolved (a `$ref` followed,
 * `site` where the list names it) and kept only when it names itself and where it goes.
 * Operations and callbacks alike.
 */
export function declaredParameters(
  resolver: RefResolver,
  entry: { pathItem: DocNode; operation: DocNode },
): Array<Omit<Param, 'required'> & { site: DocNode }> {
  const out: Array<Omit<Param, 'required'> & { site: DocNode }> = [];
  for (const owner of [entry.pathItem, entry.operation]) {
    const list = isObjectLike(owner.value) ? owner.value.parameters : undefined;
    if (!Array.isArray(list)) continue;
    list.forEach((raw, i) => {
      const site = nodeAt(owner, raw, 'parameters', i);
      const node = resolver.resolve(site);
      if (!isObjectLike(node.value) || typeof node.value.name !== 'string' || typeof node.value.in !== 'string') return;
      out.push({ node, site, name: node.value.name, in: node.value.in, value: node.value });
    });
  }
  return out;
}
