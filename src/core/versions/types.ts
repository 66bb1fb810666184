/** A JSON Schema object (2020-12, as used by OpenAPI 3.1). Kept loose on purpose: core edits schemas as data. */
export type JsonSchema = Record<string, unknown>;

/** Named component schemas, as in `#/components/schemas`. References use `{ $ref: '#/components/schemas/Name' }`. */
export type SchemaMap = Record<string, JsonSchema>;

/**
 * HTTP methods an operation may use. HEAD is derived from GET. QUERY is the safe, idempotent
 * method with a body (draft-ietf-httpbis-safe-method-w-body): documented as `query` in OpenAPI 3.2
 * documents and as the `x-query` extension in 3.1 ones.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'QUERY';

/** One documented response of an operation. */
export interface ResponseSpec {
  description: string;
  /** Component schema name of the body, if any. */
  schema?: string;
  /**
   * Response headers the handler itself sets (`Location`, `ETag`, `Link`), by name; a trailing
   * `?` marks one that is not always sent. The service's document generator defines them.
   */
  headers?: readonly string[];
}

/** A versioned operation, declared once against the newest representation. */
export interface OperationSpec {
  /** Stable id, for example `users.get`; handlers bind to it. */
  id: string;
  method: HttpMethod;
  /** Path template below the version prefix, for example `/users/{id}`. */
  path: string;
  summary: string;
  /** Component schema name of the request body. */
  body?: string;
  /** Media types accepted for the body (default `application/json`). */
  bodyTypes?: readonly string[];
  /** JSON Schema of the query string (an object schema). */
  query?: JsonSchema;
  /**
   * JSON Schema of the path parameters (an object schema), for the document only: the handler
   * reads each raw segment and answers a malformed one itself (a path that names nothing is 404).
   */
  params?: JsonSchema;
  /** Success and documented error responses, keyed by status. */
  responses: Record<number, ResponseSpec>;
  /** Component schema whose objects the `fields` parameter projects. */
  partial?: string;
  tags?: readonly string[];
}

/**
 * The newest representation of the whole interface: what handlers are written against. Declared
 * `as const` (or inline in `defineVersions`), its literal types type the handlers.
 */
export interface HeadDefinition {
  schemas: SchemaMap;
  operations: readonly OperationSpec[];
}

/**
 * What a migration is told of the call whose body it migrates: the operation, its path and query
 * parameters and headers as the client sent them in its version, and for a response its status
 * and headers as the newer version answered.
 */
export interface MigrationContext {
  /** The operation called, in the client's version: its id, method and path template. */
  operation: { id: string; method: string; path: string };
  /** The path parameters by name, decoded (`{ user_id: '1' }`). */
  params: Record<string, string>;
  /** The query parameters, decoded; a repeated one as a list. */
  query: Record<string, string | string[]>;
  /** The message's headers, names in lower case: the request's for a request, the response's for a response. */
  headers: Record<string, string | string[] | undefined>;
  /** A response's status, as the newer version answered it; undefined for a request. */
  status?: number;
}

/** Context given to request migrations. */
export interface RequestMigrationContext extends MigrationContext {
  /** Operation being called (`operation.id`). */
  operationId: string;
}

/** Migrates a request body one step up (older → newer). */
export type RequestMigration = (body: unknown, context: RequestMigrationContext) => unknown;

/** Migrates a response body one step down (newer → older). */
export type ResponseMigration = (body: unknown, context: MigrationContext) => unknown;
