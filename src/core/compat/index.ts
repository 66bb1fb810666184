export { diffOpenApi, summarize } from './diff-openapi.ts';
export type { DiffOpenApiOptions } from './diff-openapi.ts';
export { compatRules, isRuleId } from './rules.ts';

export type { Change, ChangeLevel, ChangeSummary, DiffResult } from './types.ts';
export { toDocumentSet } from './document-set.ts';
export type { DocumentSet } from './document-set.ts';
export { createRefResolver } from './ref-resolver.ts';
export type { RefResolver } from './ref-resolver.ts';
export { assertOpenApiDocument, listOperations } from './openapi-document.ts';
export { rewritePaths, suggestPathRewrites } from './path-prefix.ts';
export type { PathRewrite } from './path-prefix.ts';
export { assertRefsResolve, collectExternalRefs } from './walk-objects.ts';
export { getAtPointer, joinPointer, parsePointer } from './json-pointer.ts';
export { describeLocation, formatJson, formatMarkdown, formatText } from './format-changes.ts';
export { versionSunset } from './sunset.ts';

export { judgeChanges, operationsReached } from './usage-gate.ts';
export type { GateApproval, GateThreshold, GateUsageRow, GateWaiver, JudgedChange } from './usage-gate.ts';
