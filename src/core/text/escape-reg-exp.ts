/**
 * Escape text for use as a literal inside a regular expression (an API prefix, a vendor name, a
 * field name).
 *
 * @example
 * ```ts
 * new RegExp(`^${escapeRegExp('/api.v')}/`); // matches "/api.v/" only, not "/apixv/"
 * ```
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
