import { conditionalHeaderMaxLength } from '../../../http/index.ts';

// The response headers the service's layers add to operations, as `components.headers`.
const documentedHeaders: Record<string, Record<string, unknown>> = {
  RateLimit: header(
    'The client\'s remaining quota in the current window (draft-ietf-httpapi-ratelimit-headers): `"<policy>";r=<remaining>;t=<seconds to reset>`. Sent on every limited response while rate limiting is on.',
    { pattern: '^"[^"]{1,40}";r=[0-9]{1,12};t=[0-9]{1,12}$' },
  ),
  'RateLimit-Policy': header(
    'The quota policy that applies to the client: `"<policy>";q=<requests>;w=<window seconds>`.',
    { pattern: '^"[^"]{1,40}";q=[0-9]{1,12};w=[0-9]{1,12}$' },
  ),
  'Retry-After': header('Seconds to wait before retrying.', { pattern: '^[0-9]{1,12}$' }),
  ETag: header(
    'Strong entity tag of the representation; send it back in `If-None-Match` (GET) or `If-Match` (writes).',
    { pattern: '^"[\\x21\\x23-\\x7e]{1,200}"$' },
  ),
  Location: header('URL of the created resource.', { format: 'uri-reference' }),
  Link: header(
    'Links (RFC 8288): `rel="next"` to the next page of a list; on a deprecated version or endpoint also `rel="deprecation"` (its migration guide), `rel="successor-version"`, in the RFC header style `rel="sunset"`, and last `rel="deprecation"; type="application/deprecations+json"` (the API\'s deprecation manifest).',
  ),
  Deprecation: header(
    'When this version or endpoint was deprecated: an ISO 8601 instant, or `@<epoch seconds>` (RFC 9745) in the RFC header style. Sent only by deprecated versions and endpoints.',
  ),
  Sunset: header(
    'When this version or endpoint will be removed: an ISO 8601 instant, or an HTTP date (RFC 8594) in the RFC header style.',
  ),
  Warning: header('`299 - "<text>"`: fewer than 30 days remain before the sunset; migrate.', {
    pattern: '^299 - ".*"$',
  }),
  'Idempotent-Replayed': header(
    '`true` when this response is the stored answer to an earlier request with the same `Idempotency-Key`.',
    { enum: ['true'] },
  ),
  'API-Supported-Versions': header(
    'The versions this service supports and does not deprecate, comma-separated (for example `v2`).',
  ),
  'API-Deprecated-Versions': header('The versions that are deprecated but still served, comma-separated.'),
  'WWW-Authenticate': header(
    'The authentication challenge: `Bearer realm="versionary"`, with `error="invalid_token"` when credentials were sent but refused.',
    { pattern: '^Bearer realm="versionary".*$' },
  ),
};

export const documentedParameters: Record<string, Record<string, unknown>> = {
  IfMatch: conditional(
    'If-Match',
    'Write only if the resource still has this ETag (or `*`); otherwise 412. A longer value than `maxLength` is 400.',
  ),
  IfNoneMatch: conditional(
    'If-None-Match',
    'Answer 304 without a body if the representation still has this ETag. A longer value than `maxLength` is 400.',
  ),
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A unique key per intended request: a retry with the same key and body returns the first response (with `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 422; while the first is running, 409. Kept 24 hours per client.',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 257,
      pattern:
        '^(?:"[\\x21\\x23-\\x7e]{1,255}"|[\\x21-\\x7e]|[\\x21\\x23-\\x7e][\\x21-\\x7e]{1,254}|"[\\x21-\\x7e]{0,253}[\\x21\\x23-\\x7e])$',
    },
  },
};

/** The document's `servers`: the deployment that served it (`x-internal` for the management API's). */
export const servedHere = (internal: boolean) => [
  {
    url: '/',
    description: 'The deployment (production, staging or local) that served this document',
    'x-internal': internal,
  },
];

/** A response's header: a `$ref` to the shared definition, or an inline copy when required (a `$ref` cannot say so). */
export function headerOf(name: string, options: { required?: boolean } = {}): Record<string, unknown> {
  const definition = documentedHeaders[name];
  if (!definition) throw new Error(`undocumented response header ${name}`);
  return options.required ? { ...definition, required: true } : { $ref: `#/components/headers/${name}` };
}

export function usedHeaders(paths: unknown): Record<string, Record<string, unknown>> {
  const used = new Set<string>();
  JSON.stringify(paths, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/headers/'))
      used.add(value.slice('#/components/headers/'.length));
    return value;
  });
  return Object.fromEntries(Object.entries(documentedHeaders).filter(([name]) => used.has(name)));
}

export function parameterRef(name: keyof typeof documentedParameters & string): Record<string, unknown> {
  return { $ref: `#/components/parameters/${name}` };
}

function header(description: string, schema: Record<string, unknown> = {}): Record<string, unknown> {
  return { description, schema: { type: 'string', maxLength: 4000, ...schema } };
}

function conditional(name: string, description: string): Record<string, unknown> {
  return {
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string', maxLength: conditionalHeaderMaxLength },
  };
}
