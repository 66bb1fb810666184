export { lintOpenApi } from './lint-openapi.ts';
export type { LintOptions } from './lint-openapi.ts';

export type { LintFinding } from './types.ts';

export { formatFindingsJson, formatFindingsText } from './format-findings.ts';
