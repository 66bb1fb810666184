import type { Change } from '../compat/index.ts';
import type { GuideEntry } from './types.ts';

/** Turn a classified change into a guide line: where, what it was, what it is now. */
export function toGuideEntry(change: Change): GuideEntry {
  const { method, path, via, pointer, operations } = change.location;
  const schema = /^\/components\/schemas\/([^/]+)/.exec(pointer)?.[1]?.replaceAll('~1', '/').replaceAll('~0', '~');
  // Every operation the change reaches, so a reader can act on each; the schema's name only when
  // no operation reaches it, and never a generator's synthetic one.
  const reached =
    method !== undefined && path !== undefined
      ? [`${method} ${path}`]
      : (operations ?? (schema !== undefined && via !== undefined ? [via] : []));
  const endpoint =
    reached.length > 0
      ? reached.join(', ')
      : schema !== undefined && !isSyntheticName(schema)
        ? `schema ${schema}`
        : (via ?? pointer);
  return {
    endpoint,
    operations: reached,
    oldBehaviour: change.level === 'compatible' ? '' : readable(describeOld(change)),
    newBehaviour: readable(change.message),
    rule: change.id,
  };
}

/**
 * A schema name a generator made up from an operation and a status (`listItems_200`,
 * `listItems_200_response`, `createUser_request`): it means nothing to a reader of the guide.
 */
export function isSyntheticName(name: string): boolean {
  return /_(?:[1-5]\d\d|[1-5]xx|default|request|response)(?:_|$)/i.test(name);
}

/** A code span that starts with a synthetic name reads as an inline schema's would: `body`. */
function readable(text: string): string {
  return text.replace(/`([^`]+)`/g, (span, inner: string) => {
    const head = /^[^.[\]]+/.exec(inner)?.[0] ?? '';
    return isSyntheticName(head) ? `\`body${inner.slice(head.length)}\`` : span;
  });
}

function describeOld(change: Change): string {
  const side = change.direction === 'request' ? 'request' : 'response';
  const v = change.oldValue;
  const id = change.id;
  if (id.startsWith('endpoint-removed')) return 'The endpoint was available.';
  if (/-property-removed\b/.test(id)) return `The ${side} had the field \`${String(v)}\`.`;
  if (id.endsWith('-property-renamed')) return `The ${side} field was named \`${String(v)}\`.`;
  if (id.endsWith('-added-required') || id === 'request-parameter-added-required')
    return 'Requests without it were accepted.';
  if (id.endsWith('-became-required') || id.endsWith('-became-optional'))
    return `It was ${v === true ? 'required' : v === false ? 'optional' : String(v)}.`;
  if (id.startsWith('request-parameter-removed')) return `The parameter \`${String(v)}\` was accepted.`;
  if (Array.isArray(v) && id.endsWith('-status-removed')) return `The ${v.join(', ')} responses could be returned.`;
  if (Array.isArray(v) && id.endsWith('-header-removed')) return `The ${v.join(', ')} headers were sent.`;
  if (id.endsWith('-status-removed')) return `The ${String(v)} response could be returned.`;
  if (id.endsWith('-media-type-removed')) return `The content type ${String(v)} was supported.`;
  if (id.endsWith('-header-removed')) return `The ${String(v)} header was sent.`;
  if (id.endsWith('-enum-value-added')) return `The value ${JSON.stringify(change.newValue)} never appeared.`;
  if (id.endsWith('-enum-value-removed')) return `The value ${JSON.stringify(v)} was allowed.`;
  if (id.endsWith('-became-nullable')) return 'The value was never null.';
  if (id.endsWith('-became-not-nullable')) return 'null was accepted.';
  if (v === undefined) return 'Not present.';
  return `Was ${typeof v === 'string' ? v : JSON.stringify(v)}.`;
}
