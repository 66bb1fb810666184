import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that may carry a credential; compared case-insensitively.
 *
 * @internal exported for the tests
 */
export const credentialParams = [
  'api_key',
  'api-key',
  'apikey',
  'key',
  'token',
  'access_token',
  'access-token',
  'auth',
  'authorization',
  'password',
  'jwt',
  'secret',
];
const credential = new Set(credentialParams);

/**
 * A URL with the values of credential-like query parameters replaced by `[REDACTED]`, so a key a
 * client put in the query string never reaches the logs. The rest of the URL is kept as sent.
 *
 * @internal exported for the tests
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const [query, fragment] = splitOnce(url.slice(mark + 1), '#');
  const parts = query.split('&').map((part) => {
    const [name] = splitOnce(part, '=');
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      // An undecodable name is compared as sent.
    }
    return credential.has(decoded.trim().toLowerCase()) ? `${name}=[REDACTED]` : part;
  });
  return `${url.slice(0, mark)}?${parts.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Fastify's request log serializer, with {@link redactUrl} applied to the URL. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
