export { formatFindingsJson, formatFindingsText, lintOpenApi } from './lint-openapi.ts';
export type { LintOptions } from './lint-openapi.ts';
export type { LintFinding } from './lint-context.ts';
