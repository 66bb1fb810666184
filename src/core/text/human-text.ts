import { migrationUrlPattern, migrationUrlRule } from './migration-url.ts';

// C0 controls (with tab and the line breaks), DEL, C1 controls, UTF-16 surrogates standing alone,
// the line and paragraph separators (a line break to JSON readers and terminals alike), and the
// bidirectional embeddings, overrides and isolates, which reorder what a reader sees around them.
// With the `u` flag a well-formed pair is one code point above U+FFFF and never matches.
const refused = String.raw`\u0000-\u001f\u007f-\u009f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069`;

/**
 * The JSON Schema `pattern` (read with the `u` flag, as Ajv does) of one line of human text: a
 * name or a reason. It refuses C0 and C1 control characters, so no tab or line break and no
 * terminal escape, and lone surrogates, which storage would turn into U+FFFD.
 */
export const singleLineTextPattern = `^[^${refused}]*$`;

/** The rule {@link singleLineTextPattern} states, as the end of a sentence naming the field. */
export const singleLineTextRule =
  'must be one line of text: no control characters (tab, line breaks, escapes, bidirectional controls) and no lone surrogates';

/**
 * The pattern of a reason: one line of human text ({@link singleLineTextPattern}) with at least
 * one visible character, so a reason of spaces is refused as the portal refuses it. Leading
 * spaces, then a visible character, then anything allowed: no two parts can match the same
 * character, so the pattern stays linear.
 */
export const reasonTextPattern = `^[^\\S${refused}]*[^\\s${refused}][^${refused}]*$`;

const anyRefused = new RegExp(`[${refused}]`, 'gu');

/** Whether `text` is one line of human text ({@link singleLineTextPattern}). */
export function isSingleLineText(text: string): boolean {
  anyRefused.lastIndex = 0;
  return !anyRefused.test(text);
}

/** Why `text` is not one line of human text, as a sentence naming `field`, or `undefined` when it is. */
export function singleLineTextProblem(text: string, field: string): string | undefined {
  if (isSingleLineText(text)) return undefined;
  return `${field} ${singleLineTextRule}; got ${JSON.stringify(escapeControls(text).slice(0, 80))}.`;
}

/**
 * `text` with every character {@link singleLineTextPattern} refuses written as a visible escape
 * (`\r`, `\u001b`, `\ud800`), for printing text read from a server or a file on a terminal: a
 * stored `\r` or ANSI sequence then shows as what it is instead of redrawing the screen.
 */
export function escapeControls(text: string): string {
  return text.replace(anyRefused, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const named: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const rules = new Map([
  [singleLineTextPattern, singleLineTextRule],
  [reasonTextPattern, singleLineTextRule.replace('one line of text', 'one line of text, not blank')],
  [migrationUrlPattern, migrationUrlRule],
]);

/**
 * The sentence for a shared `pattern` a value failed (`must be one line of text: …`), so a
 * validation error states the rule instead of the regular expression; `undefined` for others.
 */
export function patternRule(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? rules.get(pattern) : undefined;
}

/**
 * Escape text for use as a literal inside a regular expression (an API prefix, a vendor name, a
 * field name).
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
