export { checkSchemaCompatibility, SchemaRule } from './schema-check.ts';
export type { SchemaCheckOptions, SchemaViolation } from './schema-check.ts';
export { diffOpenApi, summarize } from './diff-openapi.ts';
export type { DiffOpenApiOptions } from './diff-openapi.ts';
export { compatRules, isRuleId } from './rules.ts';
export type { RuleId, RuleInfo } from './rules.ts';
export type { Change, ChangeLevel, ChangeLocation, ChangeSummary, DiffResult, Direction } from './types.ts';
export { DEFAULT_ROOT_URI, isDocumentSet, toDocumentSet } from './document-set.ts';
export type { DocumentSet } from './document-set.ts';
export { createRefResolver, isRefObject, resolveRefUri } from './ref-resolver.ts';
export type { RefResolver, ResolvedNode } from './ref-resolver.ts';
export { assertOpenApiDocument, listOperations, normalizePath } from './openapi-document.ts';
export { rewritePath, rewritePaths, suggestPathRewrites } from './path-prefix.ts';
export type { PathPrefixSuggestion, PathRewrite } from './path-prefix.ts';
export { collectExternalRefs } from './external-refs.ts';
export type { ExternalRef } from './external-refs.ts';
export { assertRefsResolve } from './assert-refs.ts';
export { escapePointerToken, getAtPointer, joinPointer, parsePointer } from './json-pointer.ts';
export { describeLocation, formatJson, formatMarkdown, formatText, sortByLevel } from './format-changes.ts';
export { versionSunset } from './version-sunset.ts';
export type { VersionSunset } from './version-sunset.ts';
export { fingerprintOf, judgeChanges, operationsReached, toUsageEndpoint } from './usage-gate.ts';
export type {
  Acceptance,
  AffectedClient,
  GateApproval,
  GateThreshold,
  GateUsageRow,
  GateWaiver,
  JudgedChange,
  JudgeOptions,
} from './usage-gate.ts';
