import pluralize from 'pluralize';

/**
 * Segments that are not collections: documents, namespaces (`admin` is the management one, as
 * `api` is the API's: `/admin/v1/users`) and well-known endpoints.
 */
const NON_COLLECTION_SEGMENTS: ReadonlySet<string> = new Set(
  'api admin me self health healthz livez readyz metrics graphql .well-known openapi swagger'.split(' '),
);

/** Nouns pluralize does not know as uncountable but that are used as such in APIs. */
const UNCOUNTABLE: ReadonlySet<string> = new Set(
  'info information feedback software hardware firmware staff metadata data usage'.split(' '),
);

/** Verbs that make a segment an action rather than a resource. */
const VERBS: ReadonlySet<string> = new Set(
  `get list create update delete remove add set fetch find search make do put patch retrieve cancel
   activate deactivate enable disable login logout register send submit approve reject verify validate
   upload download export import sync refresh reset confirm capture refund close open start stop run
   execute check edit modify save load query count calculate compute generate process publish subscribe
   unsubscribe`.split(/\s+/),
);

/** Why a segment is not a plural noun. */
export type SegmentProblem =
  | { kind: 'singular'; suggestion: string }
  | { kind: 'verb'; suggestion: string }
  | { kind: 'mixed'; suggestion: string };

/**
 * Classify one literal path segment. Returns `undefined` for a conforming or allowed segment:
 * plural and uncountable nouns (people, children, data, indices, news), path parameters,
 * version segments (`v1`), file names (`openapi.json`) and {@link NON_COLLECTION_SEGMENTS}.
 */
export function checkSegment(segment: string, allow: ReadonlySet<string> = new Set()): SegmentProblem | undefined {
  if (isAllowed(segment, allow)) return undefined;
  const words = splitWords(segment);
  const last = words.at(-1);
  if (last === undefined) return undefined;
  if (words.length > 1 && VERBS.has(words[0] as string)) {
    const rest = words.slice(1);
    return {
      kind: 'mixed',
      suggestion: joinLike(segment, [...rest.slice(0, -1), pluralize.plural(rest.at(-1) as string)]),
    };
  }
  if (UNCOUNTABLE.has(last) || pluralize.isPlural(last)) return undefined;
  if (words.length === 1 && VERBS.has(last)) return { kind: 'verb', suggestion: pluralize.plural(nounFor(last)) };
  return { kind: 'singular', suggestion: joinLike(segment, [...words.slice(0, -1), pluralize.plural(last)]) };
}

function isAllowed(segment: string, allow: ReadonlySet<string>): boolean {
  if (segment === '' || segment.includes('{') || segment.includes('.')) return true;
  if (/^v\d+([._-]?\d+)*([a-z]+\d*)?$/i.test(segment)) return true;
  const lower = segment.toLowerCase();
  return NON_COLLECTION_SEGMENTS.has(lower) || allow.has(lower) || allow.has(segment);
}

function splitWords(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

function joinLike(segment: string, words: string[]): string {
  return words.join(segment.includes('_') ? '_' : '-');
}

/** A rough noun for common action verbs, only to make the suggestion concrete. */
function nounFor(verb: string): string {
  const nouns: Record<string, string> = {
    search: 'search-result',
    login: 'session',
    logout: 'session',
    register: 'registration',
    activate: 'activation',
    cancel: 'cancellation',
    refund: 'refund',
    upload: 'upload',
    export: 'export',
    import: 'import',
    verify: 'verification',
  };
  return nouns[verb] ?? `${verb}-request`;
}
