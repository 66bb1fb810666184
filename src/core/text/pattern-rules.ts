import { reasonTextPattern, reasonTextRule, singleLineTextPattern, singleLineTextRule } from './human-text.ts';
import { migrationUrlPattern, migrationUrlRule } from './migration-url.ts';

const rules = new Map([
  [singleLineTextPattern, singleLineTextRule],
  [reasonTextPattern, reasonTextRule],
  [migrationUrlPattern, migrationUrlRule],
]);

/**
 * The sentence for a shared `pattern` a value failed (`must be one line of text: …`), so a
 * validation error states the rule instead of the regular expression; `undefined` for others.
 */
export function patternRule(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? rules.get(pattern) : undefined;
}
