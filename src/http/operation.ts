import type { FastifyRequest } from 'fastify';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';

/** What a handler receives: the request in the newest representation, plus its context. */
export interface OperationContext {
  /** The version the client speaks; handlers rarely need it. */
  version: ApiVersion;
  operation: OperationSpec;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** The body, already migrated up to the newest version. */
  body: unknown;
  /** Revisions named by `If-Match` (`'*'` for any); `undefined` without the header. */
  ifMatch: number[] | '*' | undefined;
  /** Input fields the client's version cannot express: a replace keeps them. */
  hiddenFields: ReadonlySet<string>;
  /** Who is calling: the credential id once authenticated, else the remote address. */
  clientId: string;
  /** An absolute path in the client's version: `url('/users/7')` → `/api/v1/users/7`. */
  url(path: string): string;
  request: FastifyRequest;
}

/** What a handler returns, in the newest representation. */
export interface OperationResult {
  status: number;
  body?: unknown;
  /** The resource's revision: the ETag derives from it. */
  revision?: number;
  /** Path of a created resource, below the version prefix. */
  location?: string;
  headers?: Record<string, string>;
}

/** One handler per operation, written once against the newest representation. */
export type OperationHandler = (context: OperationContext) => Promise<OperationResult>;

/**
 * Declare the handlers of a set of operations, checked for completeness at start.
 *
 * @example
 * ```ts
 * const handlers = defineHandlers({ 'users.get': async (ctx) => ({ status: 200, body: await users.get(ctx.params.id) }) });
 * ```
 */
export function defineHandlers(handlers: Record<string, OperationHandler>): Record<string, OperationHandler> {
  return handlers;
}

/**
 * Read `If-Match` into revisions. Tags look like `"r<revision>.<version>..."`; any other tag can
 * never match, so it reads as revision -1.
 *
 * @example
 * ```ts
 * parseIfMatch('"r3.v1"') // [3]
 * ```
 */
export function parseIfMatch(header: string | undefined): number[] | '*' | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  return header.split(',').slice(0, 20).map((tag) => {
    const match = /^\s*"r([0-9]{1,12})\.[^"]*"\s*$/.exec(tag);
    return match ? Number(match[1]) : -1;
  });
}

/**
 * The strong ETag of a revisioned representation: revision, version and field selection.
 *
 * @example
 * ```ts
 * revisionTag({ revision: 3, version: 'v1' }) // '"r3.v1"'
 * ```
 */
export function revisionTag(options: { revision: number; version: string; fields?: string }): string {
  const selection = options.fields ? `.f${fnv1a(options.fields)}` : '';
  return `"r${options.revision}.${options.version}${selection}"`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}
