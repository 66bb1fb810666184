import type { Change } from '../compat/index.ts';
import type { GuideEntry } from './types.ts';

/**
 * Turn a classified change into a guide line: where, what it was, what it is now.
 *
 * @example
 * ```ts
 * toGuideEntry(change); // { endpoint: 'POST /users', oldBehaviour: 'Field `nickname` ...', ... }
 * ```
 */
export function toGuideEntry(change: Change): GuideEntry {
  const { method, path, via, pointer, operations, operationCount } = change.location;
  const schema = /^\/components\/schemas\/([^/]+)/.exec(pointer)?.[1]?.replaceAll('~1', '/').replaceAll('~0', '~');
  const endpoint =
    method !== undefined && path !== undefined
      ? `${method} ${path}`
      : schema !== undefined
        ? `schema ${schema}${usedBy({ names: operations ?? (via === undefined ? [] : [via]), count: operationCount })}`
        : (via ?? pointer);
  return {
    endpoint,
    oldBehaviour: change.level === 'compatible' ? '' : describeOld(change),
    newBehaviour: change.message,
    rule: change.id,
  };
}

function describeOld(change: Change): string {
  const side = change.direction === 'request' ? 'request' : 'response';
  const v = change.oldValue;
  const id = change.id;
  if (id.startsWith('endpoint-removed')) return 'The endpoint was available.';
  if (id.endsWith('-property-removed')) return `The ${side} had the field \`${String(v)}\`.`;
  if (id.endsWith('-property-renamed')) return `The ${side} field was named \`${String(v)}\`.`;
  if (id.endsWith('-added-required') || id === 'request-parameter-added-required')
    return 'Requests without it were accepted.';
  if (id.endsWith('-became-required') || id.endsWith('-became-optional'))
    return `It was ${v === true ? 'required' : v === false ? 'optional' : String(v)}.`;
  if (id === 'request-parameter-removed') return `The parameter \`${String(v)}\` was accepted.`;
  if (Array.isArray(v) && id.endsWith('-status-removed')) return `The ${v.join(', ')} responses could be returned.`;
  if (Array.isArray(v) && id.endsWith('-header-removed')) return `The ${v.join(', ')} headers were sent.`;
  if (id.endsWith('-status-removed')) return `The ${String(v)} response could be returned.`;
  if (id.endsWith('-media-type-removed')) return `The content type ${String(v)} was supported.`;
  if (id.endsWith('-header-removed')) return `The ${String(v)} header was sent.`;
  if (id.endsWith('-enum-value-removed')) return `The value ${JSON.stringify(v)} was allowed.`;
  if (id.endsWith('-became-nullable')) return 'The value was never null.';
  if (id.endsWith('-became-not-nullable')) return 'null was accepted.';
  if (v === undefined) return 'Not present.';
  return `Was ${typeof v === 'string' ? v : JSON.stringify(v)}.`;
}

function usedBy(ops: { names: readonly string[]; count: number | undefined }): string {
  if (ops.names.length === 0) return '';
  const total = ops.count ?? ops.names.length;
  const shown = ops.names.slice(0, 3).join(', ');
  return ` (used by ${shown}${total > 3 ? ` and ${total - 3} more` : ''})`;
}
