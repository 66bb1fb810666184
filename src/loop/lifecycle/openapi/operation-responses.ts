import type { OperationSpec } from '../../../core/versions/index.ts';
import { headerOf } from './headers.ts';

export interface OperationLifecycle {
  deprecated: boolean;
  removedStatus: 410 | 404;
  /** Whether a request can use a deprecated field or query parameter: such a use adds the deprecation headers. */
  elementsDeprecated?: boolean;
}

const problemContent = {
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
export const problem = (description: string) => ({ description, ...problemContent });

/** Statuses the layers in front of every handler answer, the management API's too: credentials, limits, failures. */
export const layeredProblems: Record<string, string> = {
  401: 'No credentials, or credentials that are unknown, revoked or expired',
  429: 'Too many requests from this client; retry after `Retry-After` seconds',
  500: 'The server failed; the failure is logged and nothing internal is shown',
  503: 'The service is shutting down or its storage is unavailable; retry later',
};
// And in front of a version's handlers: roles, negotiation.
const layered: Record<string, string> = {
  ...layeredProblems,
  400: 'Bad request: an unknown or invalid query parameter, header or body, or an `Accept` version that disagrees with the path',
  403: 'The credentials lack the role this operation needs',
  406: '`Accept` names no media type this API produces',
};
// Answered before the version's lifecycle step runs: never a replay, and no deprecated field or
// parameter is read; a deprecated version's public headers are added to them all the same.
const beforeLifecycle = new Set(['401', '403', '406', '429', '500', '503']);

/** Every response an operation can give, with its headers: the handler's own plus what the layers in front add. */
export function operationResponses(options: {
  op: OperationSpec;
  generated: Record<string, Record<string, unknown>>;
  lifecycle: OperationLifecycle;
}): Record<string, unknown> {
  const { op, lifecycle } = options;
  const responses: Record<string, Record<string, unknown>> = { ...options.generated };
  const add = (status: number | string, description: string) => {
    responses[status] ??= problem(description);
  };
  for (const [status, description] of Object.entries(layered)) add(status, description);
  if (op.method === 'GET') responses['304'] ??= { description: 'Not modified: `If-None-Match` names the current ETag' };
  if (op.body) {
    add(413, 'The body is larger than the limit');
    add(415, 'The body is not of a media type this operation takes, or not UTF-8');
  }
  if (op.method === 'POST') {
    add(409, 'A request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds');
    add(422, 'This `Idempotency-Key` was used with a different request');
  }
  if (lifecycle.deprecated) {
    const gone =
      'This version or endpoint passed its sunset date and was removed; the problem names its replacement and migration guide';
    if (lifecycle.removedStatus === 410) add(410, gone);
    else
      responses['404'] = {
        ...(responses['404'] ?? problemContent),
        description: `${String(responses['404']?.description ?? 'Not found')}; also: ${gone}`,
      };
  }
  const ordered = Object.keys(responses).sort();
  return Object.fromEntries(
    ordered.map((status) => [status, withHeaders({ op, status, response: responses[status]!, lifecycle })]),
  );
}

function withHeaders(options: {
  op: OperationSpec;
  status: string;
  response: Record<string, unknown>;
  lifecycle: OperationLifecycle;
}): Record<string, unknown> {
  const { op, status, lifecycle } = options;
  const code = Number(status);
  const headers = layeredHeaders(code, op.method, code === 409 && op.method === 'POST');
  const set = (name: string, required = false) => {
    headers[name] = headerOf(name, { required });
  };
  for (const declared of op.responses[code]?.headers ?? []) set(declared.replace(/\?$/, ''), !declared.endsWith('?'));
  if (op.method === 'POST' && code < 500 && !beforeLifecycle.has(status) && code !== 409 && code !== 422)
    set('Idempotent-Replayed');
  // Required on every answer of a deprecated version or endpoint (`respond:public-lifecycle-headers`);
  // for a deprecated field or parameter, sent only when the request uses it.
  const { deprecated } = lifecycle;
  if (deprecated || (lifecycle.elementsDeprecated && !beforeLifecycle.has(status))) {
    set('Deprecation', deprecated);
    set('Sunset', deprecated);
    set('Link');
    if (deprecated) set('Warning');
  }
  return { ...options.response, headers };
}

/** The headers the layers in front of every handler add to a response (`retry`: `Retry-After` beside a 429's). */
export function layeredHeaders(status: number, method: string, retry = false): Record<string, unknown> {
  return {
    RateLimit: headerOf('RateLimit', { required: status === 429 }),
    'RateLimit-Policy': headerOf('RateLimit-Policy', { required: status === 429 }),
    'API-Supported-Versions': headerOf('API-Supported-Versions'),
    'API-Deprecated-Versions': headerOf('API-Deprecated-Versions'),
    ...(status === 429 || retry ? { 'Retry-After': headerOf('Retry-After', { required: true }) } : {}),
    ...(status === 401 ? { 'WWW-Authenticate': headerOf('WWW-Authenticate', { required: true }) } : {}),
    ...(status === 304 || (status === 200 && method === 'GET') ? { ETag: headerOf('ETag', { required: true }) } : {}),
  };
}
