/**
 * Query parameters that may carry a credential; compared case-insensitively. Versionary reads
 * credentials from headers only (`Authorization`, `X-API-Key`), but a client may still put its key
 * in the query string, and that URL would be written wherever the request is described: the
 * request log lines and the spans of the service and the gateway. This list is the one definition
 * of what is hidden there.
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

/** What a hidden value becomes: the word OpenTelemetry's semantic conventions use for `url.full` and `url.query`. */
const redacted = 'REDACTED';

/**
 * A URL (a path with its query, a full URL, or a bare `?query`) with the values of credential-like
 * query parameters replaced by {@link redacted}, so a key a client put in the query string never
 * reaches a log line or a span. The rest of the URL is kept as sent.
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
    return credential.has(decoded.trim().toLowerCase()) ? `${name}=${redacted}` : part;
  });
  return `${url.slice(0, mark)}?${parts.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
