/** How a change affects existing clients. */
export type ChangeLevel = 'breaking' | 'risk' | 'compatible';

/** Which way data flows through the changed element: clients write requests and read responses. */
export type Direction = 'request' | 'response';

/** Where a change sits: the operation (when there is one) and a JSON pointer. */
export interface ChangeLocation {
  /** Upper-case HTTP method, absent for changes inside a named component schema. */
  method?: string;
  /** API path as written in the new document (old document when removed). */
  path?: string;
  /** JSON pointer into the new document; for removed items, the place the item occupied. */
  pointer: string;
  /** URI of the document the pointer refers to, when it is not the root document. */
  document?: string;
  /** For changes inside a component schema: the first operation found that uses it. */
  via?: string;
  /** For changes inside a component schema: operations that reach it (`METHOD path`), at most 10. */
  operations?: string[];
  /** How many operations reach it in all; shared schemas in big APIs are reached from hundreds. */
  operationCount?: number;
  /** When one rule repeats on one operation across responses: every status code it applies to. */
  statusCodes?: string[];
  /** When a header rule repeats on one operation: every header it applies to. */
  headers?: string[];
}

/** One classified difference between two API descriptions. */
export interface Change {
  /** Stable rule id from {@link compatRules}. */
  id: string;
  level: ChangeLevel;
  direction?: Direction;
  location: ChangeLocation;
  oldValue?: unknown;
  newValue?: unknown;
  /** One sentence a person understands. */
  message: string;
}

/** Count of changes per level. */
export interface ChangeSummary {
  breaking: number;
  risk: number;
  compatible: number;
}

/** Result of {@link diffOpenApi}. */
export interface DiffResult {
  changes: Change[];
  summary: ChangeSummary;
}
