export { escapeRegExp } from './escape-reg-exp.ts';
export {
  escapeControls,
  isSingleLineText,
  reasonTextPattern,
  singleLineTextPattern,
  singleLineTextProblem,
  singleLineTextRule,
} from './human-text.ts';
export {
  isMigrationUrl,
  migrationUrlMaxLength,
  migrationUrlPattern,
  migrationUrlProblem,
  migrationUrlRule,
} from './migration-url.ts';
export { patternRule } from './pattern-rules.ts';
export { nearestName, unknownKey } from './unknown-key.ts';
