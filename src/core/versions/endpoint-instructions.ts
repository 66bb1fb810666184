import type { HttpMethod, JsonSchema } from './types.ts';

/** The TypeScript type of each member kind of the members tables. */
interface KindTypes {
  string: string;
  strings: string[];
  map: Record<string, string>;
  values: Record<string, unknown>;
  value: unknown;
  schema: JsonSchema;
  flag: boolean;
  pointer: string;
  method: HttpMethod;
  path: string;
  status: number;
  direction: 'request' | 'response';
  header: string;
}

/** An instruction's members from its row of a members table: each of its kind's type, optional where the kind ends in `?`. */
export type MembersOf<Row> = {
  -readonly [K in keyof Row as Row[K] extends `${string}?` ? never : K]: KindTypes[Row[K] & keyof KindTypes];
} & {
  -readonly [
    K in keyof Row as Row[K] extends `${string}?` ? K : never
  ]?: Row[K] extends `${infer Kind extends keyof KindTypes}?` ? KindTypes[Kind] : never;
};

/**
 * The change file's members of each endpoint op, as `readVersionChanges` checks them (`?`:
 * optional), and the type of each instruction.
 */
export const endpointMembers = {
  // Older calls are served by `upstreamPath` (its parameters named as in `path`) and `upstreamMethod`
  // (default: `method`), an operation the newer version still routes, or answered 410 without one.
  // `operationId` defaults to the method and path (`get_legacy_users`).
  'endpoint-removed': {
    method: 'method',
    path: 'path',
    upstreamPath: 'path?',
    upstreamMethod: 'method?',
    operationId: 'string?',
    summary: 'string?',
  },
  // `previousMethod` defaults to `method`.
  'endpoint-moved': { method: 'method', path: 'path', previousPath: 'path', previousMethod: 'method?' },
  'status-changed': { method: 'method', path: 'path', status: 'status', previousStatus: 'status' },
  // Without a route, a header is renamed on every endpoint.
  'header-renamed': { in: 'direction', name: 'header', previousName: 'header', method: 'method?', path: 'path?' },
  'query-renamed': { method: 'method', path: 'path', name: 'string', previousName: 'string' },
} as const;

type Endpoint<Op extends keyof typeof endpointMembers> = MembersOf<(typeof endpointMembers)[Op]>;

/** The newer version removed an endpoint that older versions still have. */
type EndpointRemoved = Endpoint<'endpoint-removed'> & { op: 'endpoint-removed' };
/** The newer version moved an endpoint (its path, its method or both); older versions route it where it was. */
type EndpointMoved = Endpoint<'endpoint-moved'> & { op: 'endpoint-moved' };
/** The newer version answers an endpoint's `previousStatus` with `status` (a `201` that was a `200`). */
type StatusChanged = Endpoint<'status-changed'> & { op: 'status-changed' };
/** The newer version renamed a header, of requests or of responses; of one endpoint, or of all without `method` and `path`. */
type HeaderRenamed = Endpoint<'header-renamed'> & { op: 'header-renamed' };
/** The newer version renamed an endpoint's query parameter. */
type QueryRenamed = Endpoint<'query-renamed'> & { op: 'query-renamed' };

/** The instructions on an endpoint's routing and transport (path, method, status, headers, query). */
export type EndpointInstruction = EndpointRemoved | EndpointMoved | StatusChanged | HeaderRenamed | QueryRenamed;

/**
 * Declare an endpoint the newer version removed: older versions still route it, served by
 * `upstreamPath` when given, else answered 410.
 *
 * @example
 * ```ts
 * endpointRemoved({ method: 'GET', path: '/users/{user_id}/emails', upstreamPath: '/users/{user_id}/addresses' })
 * ```
 */
export function endpointRemoved(options: Omit<EndpointRemoved, 'op'>): EndpointRemoved {
  return { op: 'endpoint-removed', ...options };
}

/**
 * Declare an endpoint the newer version moved; older versions route it at `previousPath` (and
 * `previousMethod`), and their calls go to the new route.
 *
 * @example
 * ```ts
 * endpointMoved({ method: 'GET', path: '/people/{user_id}', previousPath: '/users/{user_id}' })
 * ```
 */
export function endpointMoved(options: Omit<EndpointMoved, 'op'>): EndpointMoved {
  return { op: 'endpoint-moved', ...options };
}

/**
 * Declare that the newer version answers with another status; older versions get `previousStatus`.
 *
 * @example
 * ```ts
 * statusChanged({ method: 'POST', path: '/users', status: 201, previousStatus: 200 })
 * ```
 */
export function statusChanged(options: Omit<StatusChanged, 'op'>): StatusChanged {
  return { op: 'status-changed', ...options };
}

/**
 * Declare a renamed header: older requests' `previousName` goes up as `name`, or newer responses'
 * `name` comes down as `previousName`.
 *
 * @example
 * ```ts
 * headerRenamed({ in: 'response', name: 'X-Total-Count', previousName: 'X-Count' })
 * ```
 */
export function headerRenamed(options: Omit<HeaderRenamed, 'op'>): HeaderRenamed {
  return { op: 'header-renamed', ...options };
}

/**
 * Declare a renamed query parameter: older calls' `previousName` goes up as `name`.
 *
 * @example
 * ```ts
 * queryRenamed({ method: 'GET', path: '/users', name: 'page_size', previousName: 'limit' })
 * ```
 */
export function queryRenamed(options: Omit<QueryRenamed, 'op'>): QueryRenamed {
  return { op: 'query-renamed', ...options };
}
