import type { HttpMethod } from './types.ts';

/**
 * The newer version removed an endpoint that older versions still have. An older call is served
 * by `upstreamPath` (and `upstreamMethod`), an operation the newer version still routes, or
 * answered 410 when none is given.
 */
interface EndpointRemoved {
  op: 'endpoint-removed';
  method: HttpMethod;
  path: string;
  /** The newer version's path that serves the older calls (its parameters named as in `path`). */
  upstreamPath?: string;
  /** The newer version's method there (default: `method`). */
  upstreamMethod?: HttpMethod;
  /** The older operation's id (default: the method and path, `get_legacy_users`). */
  operationId?: string;
  summary?: string;
}
/** The newer version moved an endpoint (its path, its method or both); older versions route it where it was. */
interface EndpointMoved {
  op: 'endpoint-moved';
  method: HttpMethod;
  path: string;
  previousPath: string;
  /** The older method (default: `method`). */
  previousMethod?: HttpMethod;
}
/** The newer version answers an endpoint's `previousStatus` with `status` (a `201` that was a `200`). */
interface StatusChanged {
  op: 'status-changed';
  method: HttpMethod;
  path: string;
  status: number;
  previousStatus: number;
}
/** The newer version renamed a header, of requests or of responses; of one endpoint, or of all without `method` and `path`. */
interface HeaderRenamed {
  op: 'header-renamed';
  in: 'request' | 'response';
  name: string;
  previousName: string;
  method?: HttpMethod;
  path?: string;
}
/** The newer version renamed an endpoint's query parameter. */
interface QueryRenamed {
  op: 'query-renamed';
  method: HttpMethod;
  path: string;
  name: string;
  previousName: string;
}

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

/**
 * The change file's members of each endpoint op, as `readVersionChanges` checks them (`?`:
 * optional; a `header-renamed` without a route renames it on every endpoint).
 */
export const endpointMembers = {
  'endpoint-removed': {
    method: 'method',
    path: 'path',
    upstreamPath: 'path?',
    upstreamMethod: 'method?',
    operationId: 'string?',
    summary: 'string?',
  },
  'endpoint-moved': { method: 'method', path: 'path', previousPath: 'path', previousMethod: 'method?' },
  'status-changed': { method: 'method', path: 'path', status: 'status', previousStatus: 'status' },
  'header-renamed': { in: 'direction', name: 'header', previousName: 'header', method: 'method?', path: 'path?' },
  'query-renamed': { method: 'method', path: 'path', name: 'string', previousName: 'string' },
} as const;
