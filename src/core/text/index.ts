export {
  escapeControls,
  escapeRegExp,
  isSingleLineText,
  patternRule,
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
export { nearestName, unknownKey } from './unknown-key.ts';
