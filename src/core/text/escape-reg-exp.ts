/**
 * Escape text for use as a literal inside a regular expression (an API prefix, a vendor name, a
 * field name).
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
