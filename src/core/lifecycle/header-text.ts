import { ErrorCode, VersionaryError } from '../errors/index.ts';

/**
 * Quote text for a header `quoted-string` (RFC 9110 section 5.6.4): escapes `"` and `\`, and
 * replaces anything outside visible ASCII and space, so config text can never split a header.
 */
export function quoteHeaderText(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`);
  return `"${safe}"`;
}

/**
 * Check a URI before it goes between `<` and `>` in a `Link` header; throws `INVALID_CONFIG`
 * rather than percent-encoding it, since a silently rewritten URL would mislead clients.
 */
export function linkTarget(uri: string, field: string): string {
  if (uri === '' || /[^\x21-\x7e]|[<>"]/.test(uri)) {
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `${field} cannot appear in a Link header: ${JSON.stringify(uri)} must be a non-empty URI of visible ASCII without <, > or ".`,
      extensions: { field, value: uri },
    });
  }
  return `<${uri}>`;
}
