import { joinPointer } from '../compat/index.ts';
import { isObjectLike } from '../compat/schema-model.ts';
import type { LintContext } from './lint-context.ts';
import type { LintFinding } from './types.ts';

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
