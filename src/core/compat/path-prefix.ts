import { ErrorCode, VersionaryError } from '../errors/index.ts';
import type { DocumentSet } from './document-set.ts';
import { isObjectLike } from './schema-model.ts';

/**
 * How one document's paths are rewritten before a comparison, as oasdiff's `--strip-prefix-*` and
 * `--prefix-*` flags do: `strip` is taken off the front of each path that starts with it, then
 * `prefix` is put in front of every path.
 */
export interface PathRewrite {
  strip?: string | undefined;
  prefix?: string | undefined;
}

/**
 * One path rewritten. Only a whole leading segment run is stripped, so `/api/v1` leaves
 * `/api/v10/users` alone (oasdiff would make it `0/users`).
 */
function rewritePath(path: string, rewrite: PathRewrite): string {
  const strip = trimSlash(rewrite.strip ?? '');
  const stripped = strip !== '' && (path === strip || path.startsWith(`${strip}/`)) ? path.slice(strip.length) : path;
  const rewritten = trimSlash(rewrite.prefix ?? '') + stripped;
  return rewritten === '' ? '/' : rewritten;
}

/**
 * A copy of a document set whose root document has its `paths` keys rewritten; the other
 * documents are shared. Throws `SPEC_INVALID` when two paths become one.
 */
export function rewritePaths(set: DocumentSet, rewrite: PathRewrite): DocumentSet {
  const doc = set.documents.get(set.root);
  if ((rewrite.strip ?? '') === '' && (rewrite.prefix ?? '') === '') return set;
  if (!isObjectLike(doc) || !isObjectLike(doc.paths)) return set;
  const paths: Record<string, unknown> = {};
  const from = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const rewritten = rewritePath(path, rewrite);
    const earlier = from.get(rewritten);
    if (earlier !== undefined) {
      throw new VersionaryError({
        code: ErrorCode.SpecInvalid,
        detail: `${set.root}: rewriting the paths makes ${earlier} and ${path} both ${rewritten}; choose a prefix that keeps them apart.`,
      });
    }
    from.set(rewritten, path);
    paths[rewritten] = item;
  }
  const documents = new Map(set.documents);
  documents.set(set.root, { ...doc, paths });
  return { root: set.root, documents };
}

/** What {@link suggestPathRewrites} found: each side's leading path up to its version segment. */
export interface PathPrefixSuggestion {
  /** The base's prefix, e.g. `/api/v1`. */
  base: string;
  /** The revision's prefix, e.g. `/api/v2`. */
  revision: string;
  /** Both prefixes without their version segment, e.g. `/api`. */
  common: string;
}

const versionSegment = /^v\d+$/i;

/**
 * When every path of both documents differs only by a version segment (`/api/v1/…` against
 * `/api/v2/…`), no operation can match: the prefixes that would line them up. `undefined`
 * otherwise, and when the documents already share a path.
 */
export function suggestPathRewrites(
  basePaths: readonly string[],
  revisionPaths: readonly string[],
): PathPrefixSuggestion | undefined {
  const base = sharedVersionPrefix(basePaths);
  const revision = sharedVersionPrefix(revisionPaths);
  if (!base || !revision || base.prefix === revision.prefix || base.common !== revision.common) return undefined;
  const unversioned = (paths: readonly string[], prefix: string) => new Set(paths.map((p) => p.slice(prefix.length)));
  const revisionRest = unversioned(revisionPaths, revision.prefix);
  if (![...unversioned(basePaths, base.prefix)].some((rest) => revisionRest.has(rest))) return undefined;
  return { base: base.prefix, revision: revision.prefix, common: base.common };
}

// The prefix up to the first version segment, when every path has the same one.
function sharedVersionPrefix(paths: readonly string[]): { prefix: string; common: string } | undefined {
  let found: { prefix: string; common: string } | undefined;
  for (const path of paths) {
    const segments = path.split('/');
    const at = segments.findIndex((s) => versionSegment.test(s));
    if (at === -1) return undefined;
    const prefix = segments.slice(0, at + 1).join('/');
    if (found && found.prefix !== prefix) return undefined;
    found ??= { prefix, common: segments.slice(0, at).join('/') };
  }
  return found;
}

function trimSlash(text: string): string {
  return text.endsWith('/') ? text.slice(0, -1) : text;
}
