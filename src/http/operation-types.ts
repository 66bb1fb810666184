// What handlers receive and return, in a leaf: handler-types.ts derives its typed handlers from
// these and operation.ts (defineHandlers) reads handler-types.ts, so neither may own them.
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
  /**
   * The members a sparse fieldset keeps, when the client speaks the newest version: a handler may
   * read only these. Absent without `fields`, and in older versions.
   */
  fields?: ReadonlySet<string>;
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
