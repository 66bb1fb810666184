export { lintOpenApi } from './lint-openapi.ts';
export type { LintOptions } from './lint-openapi.ts';
export { lintRules } from './rules.ts';
export type { LintRuleId } from './rules.ts';
export type { LintFinding } from './types.ts';
export { checkSegment, isPluralNoun, NON_COLLECTION_SEGMENTS } from './segments.ts';
export type { SegmentProblem } from './segments.ts';
export { formatFindingsJson, formatFindingsText } from './format-findings.ts';
