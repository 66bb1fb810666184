import { diffContent, compareChildSchemas, isRequired } from './diff-bodies.ts';
import { emit, matchKeys, type DiffContext } from './diff-context.ts';
import type { DocNode } from './json-pointer.ts';
import type { RefResolver } from './ref-resolver.ts';
import { child, isObjectLike, nodeEntries } from './schema-model.ts';

/** Compare the responses of one operation: status codes, headers, media types and schemas. */
export function diffResponses(ctx: DiffContext, ops: { old: DocNode; new: DocNode }): void {
  const reactivated = isDeprecated(ops.old) && !isDeprecated(ops.new);
  matchKeys(statusMap(child(ops.old, 'responses')), statusMap(child(ops.new, 'responses')), {
    removed: (node, status) => {
      const message = `The ${status} response is no longer returned.`;
      const id = `response-${isSuccess(status) ? 'success' : 'error'}-status-removed` as const;
      emit(ctx, id, { at: node, side: 'old', direction: 'response', oldValue: status, message });
    },
    added: (node, status) => {
      const message = `A ${status} response may now be returned.`;
      const id = `response-${isSuccess(status) ? 'success' : 'error'}-status-added` as const;
      emit(ctx, id, { at: node, direction: 'response', newValue: status, message });
    },
    both: (old, node, status) => {
      const o = ctx.old.resolver.resolve(old);
      const n = ctx.new.resolver.resolve(node);
      diffHeaders(ctx, { old: o, new: n, status, reactivated });
      diffContent(ctx, { old: o, new: n, direction: 'response', label: 'body' });
    },
  });
}

// Deprecation (RFC 9745) and Sunset (RFC 8594) only ever announce an end: losing them is good news.
const endAnnouncements = new Set(['deprecation', 'sunset']);
// Sent beside those by a deprecated operation (a rel="deprecation" Link, a 299 Warning).
const deprecationCompanions = new Set(['link', 'warning']);

function diffHeaders(ctx: DiffContext, r: { old: DocNode; new: DocNode; status: string; reactivated: boolean }): void {
  matchKeys(headers(ctx.old.resolver, r.old), headers(ctx.new.resolver, r.new), {
    removed: (h, name) => {
      const base = { at: h.site, side: 'old' as const, direction: 'response' as const, oldValue: h.name };
      if (endAnnouncements.has(name) || (r.reactivated && deprecationCompanions.has(name))) {
        const why = r.reactivated
          ? 'the operation is no longer deprecated'
          : 'it no longer announces a deprecation or a sunset';
        const message = `The ${r.status} response no longer has the ${h.name} header: ${why}.`;
        emit(ctx, 'response-deprecation-header-removed', { ...base, message });
      } else {
        const message = `The ${r.status} response no longer has the ${h.name} header.`;
        emit(ctx, 'response-header-removed', { ...base, message });
      }
    },
    added: (h) => {
      const message = `The ${r.status} response has a new ${h.name} header.`;
      emit(ctx, 'response-header-added', { at: h.site, direction: 'response', newValue: h.name, message });
    },
    both: (old, h) => {
      if (old.required !== h.required) {
        emit(ctx, h.required ? 'response-header-became-required' : 'response-header-became-optional', {
          at: h.node,
          direction: 'response',
          oldValue: old.required,
          newValue: h.required,
          message: `The ${h.name} header of the ${r.status} response ${h.required ? 'is now always sent' : 'may now be missing'}.`,
        });
      }
      compareChildSchemas(ctx, 'schema', { old: old.node, new: h.node, direction: 'response', label: h.name });
    },
  });
}

function headers(resolver: RefResolver, response: DocNode) {
  // `site` is where the response names the header, so a removal of a shared (`$ref`) header is
  // reported on each response that loses it, not once at the component.
  const out = new Map<string, { name: string; node: DocNode; site: DocNode; required: boolean }>();
  for (const [name, site] of nodeEntries(child(response, 'headers'))) {
    const node = resolver.resolve(site);
    out.set(name.toLowerCase(), { name, node, site, required: isRequired(node) });
  }
  return out;
}

/** A `responses` map by upper-cased status (`2XX` and `2xx` are one range). */
export function statusMap(node: DocNode | undefined): Map<string, DocNode> {
  return new Map(nodeEntries(node).map(([status, at]) => [status.toUpperCase(), at]));
}

/** Whether a response key stands for success (1xx to 3xx, including ranges like `2XX`). */
export function isSuccess(status: string): boolean {
  return /^[123]/.test(status);
}

function isDeprecated(operation: DocNode): boolean {
  return isObjectLike(operation.value) && operation.value.deprecated === true;
}
