import { compareChildSchemas, diffContent } from './diff-bodies.ts';
import { emit, matchKeys, type DiffContext, type Side } from './diff-context.ts';
import { pathItemOperations } from './openapi-document.ts';
import { declaredParameters } from './diff-parameters.ts';
import { isSuccess, statusMap } from './diff-responses.ts';
import type { DocNode } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import { child, isObjectLike, nodeEntries } from './schema-model.ts';

/** One operation the API calls on a subscriber: a webhook or an operation's callback. */
interface Outgoing {
  /** `POST webhook orderPaid`, `POST callback onEvent {$request.body#/url}`: its key too. */
  label: string;
  pathItem: DocNode;
  operation: DocNode;
}

/**
 * Compare the OpenAPI 3.1 `webhooks`. The API is the caller here: the payload (the webhook's
 * request body) and the headers it sends are data subscribers read, so response rules apply to
 * them, and the subscriber's response is data the API reads, so request rules apply to it.
 */
export function diffWebhooks(ctx: DiffContext): void {
  const root = (side: Side): DocNode => {
    const doc = side.set.documents.get(side.set.root);
    return { uri: side.set.root, pointer: '/webhooks', value: isObjectLike(doc) ? doc.webhooks : undefined };
  };
  diffOutgoing(ctx, {
    old: outgoing(ctx.old, root(ctx.old), 'webhook'),
    new: outgoing(ctx.new, root(ctx.new), 'webhook'),
    kind: 'webhook',
  });
}

/** Compare the `callbacks` of one operation, with the same direction rules as webhooks. */
export function diffCallbacks(ctx: DiffContext, ops: { old: DocNode; new: DocNode }): void {
  const oc = child(ops.old, 'callbacks');
  const nc = child(ops.new, 'callbacks');
  if (oc === undefined && nc === undefined) return;
  const list = (side: Side, node: DocNode | undefined): Outgoing[] =>
    nodeEntries(node).flatMap(([name, site]) => outgoing(side, side.resolver.resolve(site), `callback ${name}`));
  diffOutgoing(ctx, { old: list(ctx.old, oc), new: list(ctx.new, nc), kind: 'callback' });
}

function outgoing(side: Side, map: DocNode, prefix: string): Outgoing[] {
  const out: Outgoing[] = [];
  for (const [name, site] of nodeEntries(map)) {
    const item = side.resolver.resolve(site);
    for (const { method, operation } of pathItemOperations(item))
      out.push({ label: `${method} ${prefix} ${name}`, pathItem: item, operation });
  }
  return out;
}

function diffOutgoing(
  ctx: DiffContext,
  lists: { old: Outgoing[]; new: Outgoing[]; kind: 'webhook' | 'callback' },
): void {
  const newByLabel = new Map(lists.new.map((o) => [o.label, o]));
  const oldLabels = new Set(lists.old.map((o) => o.label));
  const outer = ctx.via;
  for (const o of lists.old) {
    const n = newByLabel.get(o.label);
    if (n === undefined) {
      const message = `The ${o.label} was removed; subscribers stop receiving it.`;
      emit(ctx, `${lists.kind}-removed`, { at: o.operation, side: 'old', oldValue: o.label, message });
      continue;
    }
    if (lists.kind === 'webhook') ctx.via = n.label;
    try {
      diffOutgoingOperation(ctx, { old: o, new: n });
    } finally {
      ctx.via = outer;
    }
  }
  for (const n of lists.new) {
    if (!oldLabels.has(n.label))
      emit(ctx, `${lists.kind}-added`, { at: n.operation, newValue: n.label, message: `The ${n.label} was added.` });
  }
}

function diffOutgoingOperation(ctx: DiffContext, ops: { old: Outgoing; new: Outgoing }): void {
  const label = ops.new.label;
  diffSentParameters(ctx, ops);
  const ob = child(ops.old.operation, 'requestBody');
  const nb = child(ops.new.operation, 'requestBody');
  if (ob !== undefined && nb === undefined) {
    const message = `The ${label} no longer sends a payload.`;
    emit(ctx, 'callback-payload-removed', { at: ob, side: 'old', direction: 'response', message });
  } else if (ob === undefined && nb !== undefined) {
    const message = `The ${label} now sends a payload.`;
    emit(ctx, 'callback-payload-added', { at: nb, direction: 'response', message });
  } else if (ob !== undefined && nb !== undefined) {
    // The payload is what subscribers read: response rules.
    const [o, n] = [ctx.old.resolver.resolve(ob), ctx.new.resolver.resolve(nb)];
    diffContent(ctx, { old: o, new: n, direction: 'response', label: 'payload' });
  }
  diffSubscriberResponses(ctx, ops);
}

/** The subscriber writes its response and the API reads it: request rules. */
function diffSubscriberResponses(ctx: DiffContext, ops: { old: Outgoing; new: Outgoing }): void {
  matchKeys(statusMap(child(ops.old.operation, 'responses')), statusMap(child(ops.new.operation, 'responses')), {
    removed: (node, status) => {
      if (!isSuccess(status)) return;
      emit(ctx, 'callback-response-status-removed', {
        at: node,
        side: 'old',
        direction: 'request',
        oldValue: status,
        message: `The ${ops.new.label} no longer documents a ${status} answer from subscribers; subscribers that answer it may be treated as failed deliveries.`,
      });
    },
    added: (node, status) => {
      if (!isSuccess(status)) return;
      const message = `The ${ops.new.label} now accepts a ${status} answer from subscribers.`;
      emit(ctx, 'callback-response-status-added', { at: node, direction: 'request', newValue: status, message });
    },
    both: (old, node) => {
      const [o, n] = [ctx.old.resolver.resolve(old), ctx.new.resolver.resolve(node)];
      diffContent(ctx, { old: o, new: n, direction: 'request', label: 'answer' });
    },
  });
}

/** Parameters of an outgoing call are what the API sends (headers, query): subscribers read them. */
function diffSentParameters(ctx: DiffContext, ops: { old: Outgoing; new: Outgoing }): void {
  const op = params(ctx.old.resolver, ops.old);
  const np = params(ctx.new.resolver, ops.new);
  for (const [key, p] of op) {
    const q = np.get(key);
    if (q === undefined) {
      emit(ctx, 'callback-parameter-removed', {
        at: p.node,
        side: 'old',
        direction: 'response',
        oldValue: p.name,
        message: `The ${ops.new.label} no longer sends the ${p.in} parameter \`${p.name}\`.`,
      });
      continue;
    }
    compareChildSchemas(ctx, 'schema', { old: p.node, new: q.node, direction: 'response', label: p.name });
  }
  for (const [key, q] of np) {
    if (op.has(key)) continue;
    const message = `The ${ops.new.label} now sends the ${q.in} parameter \`${q.name}\`.`;
    emit(ctx, 'callback-parameter-added', { at: q.node, direction: 'response', newValue: q.name, message });
  }
}

function params(resolver: RefResolver, entry: Outgoing) {
  const key = (p: { name: string; in: string }) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  return new Map(declaredParameters(resolver, entry).map((p) => [key(p), p]));
}
