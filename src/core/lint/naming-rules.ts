import { declaredParameters } from '../compat/diff-parameters.ts';
import { joinPointer } from '../compat/index.ts';
import { isObjectLike } from '../compat/schema-model.ts';
import type { LintContext, LintFinding } from './lint-context.ts';
import { checkSegment } from './segments.ts';

/** Naming rule 1: collection segments are plural nouns. One finding per path and segment. */
export function checkCollectionNames(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  const paths = isObjectLike(ctx.doc.paths) ? Object.keys(ctx.doc.paths) : [];
  for (const path of paths) {
    const segments = path.split('/');
    segments.forEach((segment, index) => {
      const problem = checkSegment(segment, ctx.allowSegments);
      if (problem === undefined) return;
      if (problem.kind === 'singular' && isSingleton(ctx, { path, segments, index })) return;
      const what = { singular: 'is singular', verb: 'is a verb', mixed: 'mixes a verb with a noun' }[problem.kind];
      const fix = segments.map((s, i) => (i === index ? problem.suggestion : s)).join('/');
      out.push({
        rule: 'collection-not-plural',
        path,
        pointer: joinPointer('/paths', path),
        message: `Segment "${segment}" ${what}; collection names are plural nouns.`,
        suggestion:
          problem.kind === 'singular'
            ? `Rename to ${fix}.`
            : `Let the HTTP method carry the action and name the resource: ${fix}.`,
      });
    });
  }
  return out;
}

/**
 * A singleton sub-resource, not a collection: a singular noun that ends the path right after a
 * path parameter (`/users/{id}/profile`, `/versions/{name}/deprecation`), and that takes no POST,
 * so nothing is ever added to it.
 */
function isSingleton(ctx: LintContext, at: { path: string; segments: string[]; index: number }): boolean {
  const { path, segments, index } = at;
  if (index !== segments.length - 1 || !/^\{[^}]+\}$/.test(segments[index - 1] ?? '')) return false;
  return !ctx.operations.some((op) => op.path === path && op.method.toUpperCase() === 'POST');
}

/** `id`, `userId`, `user_id`, `user-id`, `uuid`: names that carry a resource identifier. */
const IDENTIFIER = /^(id|ids|uuid|guid)$|[a-z0-9](Id|ID|Ids|_id|_ids|-id|_ID)$/;

/** Naming rule 2: an identifier is a path segment, never a query parameter. */
export function checkIdentifiersInQuery(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const op of ctx.operations) {
    for (const { site, name, in: where } of declaredParameters(ctx.resolver, op)) {
      if (where !== 'query' || !IDENTIFIER.test(name)) continue;
      const base = op.path.replace(/\/+$/, '');
      const fix = /^(id|ids|uuid|guid)$/i.test(name)
        ? `${base}/{${name}}`
        : `/…/{${name}}${base.slice(base.lastIndexOf('/'))}`;
      out.push({
        rule: 'identifier-in-query',
        path: op.path,
        method: op.method,
        pointer: site.pointer,
        message: `Query parameter "${name}" carries a resource identifier.`,
        suggestion: `Make it a path segment: ${fix}.`,
      });
    }
  }
  return dedupe(out);
}

function dedupe(findings: LintFinding[]): LintFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.rule}|${f.method ?? ''}|${f.path}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const VERSION_SEGMENT = /(^|\/)v\d+(\/|$)/;
const VERSIONED_MEDIA = /(\.v\d+[+.]|[;\s]version=)/i;

/**
 * Versioning: every path carries the version (`/api/v<n>/...`, or any `v<n>` segment), unless a
 * server URL or a versioned media type (`application/vnd.acme.v2+json`, `; version=2`) does.
 */
export function checkVersionedPaths(ctx: LintContext): LintFinding[] {
  if (serversCarryVersion(ctx.doc.servers)) return [];
  const out: LintFinding[] = [];
  const paths = isObjectLike(ctx.doc.paths) ? ctx.doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    if (VERSION_SEGMENT.test(path)) continue;
    const item = ctx.resolver.resolve({ uri: ctx.set.root, pointer: joinPointer('/paths', path), value: raw }).value;
    if (isObjectLike(item) && (serversCarryVersion(item.servers) || usesVersionedMedia(ctx, path))) continue;
    out.push({
      rule: 'unversioned-path',
      path,
      pointer: joinPointer('/paths', path),
      message: `Path ${path} carries no API version.`,
      suggestion: `Serve it as /api/v1${path === '/' ? '' : path} or put the version in the server URL (https://host/api/v1).`,
    });
  }
  return out;
}

function serversCarryVersion(servers: unknown): boolean {
  if (!Array.isArray(servers) || servers.length === 0) return false;
  return servers.every(
    (s) =>
      isObjectLike(s) && typeof s.url === 'string' && VERSION_SEGMENT.test(s.url.replace(/^[a-z]+:\/\/[^/]*/i, '')),
  );
}

function usesVersionedMedia(ctx: LintContext, path: string): boolean {
  const ops = ctx.operations.filter((op) => op.path === path);
  return ops.length > 0 && ops.every((op) => VERSIONED_MEDIA.test(JSON.stringify(mediaTypes(op.operation.value))));
}

function mediaTypes(operation: unknown): string[] {
  if (!isObjectLike(operation)) return [];
  const out: string[] = [];
  const responses = isObjectLike(operation.responses) ? Object.values(operation.responses) : [];
  for (const r of [operation.requestBody, ...responses]) {
    if (isObjectLike(r) && isObjectLike(r.content)) out.push(...Object.keys(r.content));
  }
  return out;
}
