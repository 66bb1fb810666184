import { emit, matchKeys, type DiffContext, type SchemaPair } from './diff-context.ts';
import { compareSchemas } from './diff-schema.ts';
import type { DocNode } from './json-pointer.ts';
import { child, isObjectLike, nodeEntries } from './schema-model.ts';
import type { Direction } from './types.ts';

/** Compare the request bodies of one operation: presence, required flag, media types, schemas. */
export function diffRequestBody(ctx: DiffContext, ops: { old: DocNode; new: DocNode }): void {
  const ob = child(ops.old, 'requestBody');
  const nb = child(ops.new, 'requestBody');
  if (ob === undefined || nb === undefined) {
    if (nb !== undefined) {
      const kind = isRequired(ctx.new.resolver.resolve(nb)) ? 'required' : 'optional';
      const message = `A ${kind} request body was added.`;
      emit(ctx, `request-body-added-${kind}`, { at: nb, direction: 'request', message });
    } else if (ob !== undefined) {
      const message = 'The request body was removed; what clients send is ignored.';
      emit(ctx, 'request-body-removed', { at: ob, side: 'old', direction: 'request', message });
    }
    return;
  }
  const o = ctx.old.resolver.resolve(ob);
  const n = ctx.new.resolver.resolve(nb);
  const [was, now] = [isRequired(o), isRequired(n)];
  if (was !== now) {
    const message = `The request body became ${now ? 'required' : 'optional'}.`;
    const id = `request-body-became-${now ? 'required' : 'optional'}` as const;
    emit(ctx, id, { at: n, direction: 'request', oldValue: was, newValue: now, message });
  }
  diffContent(ctx, { old: o, new: n, direction: 'request', label: 'body' });
}

/** Compare the `content` maps of two bodies (request bodies or responses). */
export function diffContent(
  ctx: DiffContext,
  args: { old: DocNode; new: DocNode; direction: Direction; label: string },
): void {
  const { direction, label } = args;
  matchKeys(mediaMap(args.old), mediaMap(args.new), {
    removed: (node, media) => {
      const message = `The ${direction} content type ${media} is no longer ${direction === 'request' ? 'accepted' : 'produced'}.`;
      emit(ctx, `${direction}-media-type-removed`, { at: node, side: 'old', direction, oldValue: media, message });
    },
    added: (node, media) => {
      const message = `The ${direction} content type ${media} was added.`;
      emit(ctx, `${direction}-media-type-added`, { at: node, direction, newValue: media, message });
    },
    both: (old, node) => {
      compareChildSchemas(ctx, 'schema', { old, new: node, direction, label });
      // OpenAPI 3.2: each item of a sequential media type (JSON Lines, JSON text sequences, server-sent
      // events, multipart/mixed) is validated by `itemSchema` on its own, so it is compared like a body.
      compareChildSchemas(ctx, 'itemSchema', { old, new: node, direction, label: `${label}[item]` });
    },
  });
}

function mediaMap(body: DocNode): Map<string, DocNode> {
  const media = nodeEntries(child(body, 'content'));
  return new Map(media.map(([type, node]) => [type.split(';')[0]?.trim().toLowerCase() ?? type, node]));
}

/** Compare the `key` schemas (`schema`, `itemSchema`) of two nodes, when both have one. */
export function compareChildSchemas(ctx: DiffContext, key: string, pair: SchemaPair): void {
  const o = child(pair.old, key);
  const n = child(pair.new, key);
  if (o !== undefined && n !== undefined) compareSchemas(ctx, { ...pair, old: o, new: n });
}

/** Whether a (resolved) request body or header says `required: true`. */
export function isRequired(node: DocNode): boolean {
  return isObjectLike(node.value) && node.value.required === true;
}
