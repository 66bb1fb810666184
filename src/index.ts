// The public entry point `versionary`: the framework-free core. Everything not exported here (or
// from `versionary/fastify` and `versionary/client`) is internal and may change in any release.
export { createFixedClock, type Clock, type ClockInstant } from './core/clock/index.ts';
export { ErrorCode, VersionaryError, isVersionaryError } from './core/errors/index.ts';
export type { FieldError, VersionaryErrorOptions } from './core/errors/index.ts';

// Versions and changes.
export {
  defineVersions,
  defineVersionChange,
  checkDeprecatedRemovals,
  deprecatedFieldRemoved,
  endpointAdded,
  enumValuesAdded,
  enumValuesRemoved,
  fieldAdded,
  fieldRemoved,
  fieldRenamed,
  fieldRetyped,
  schemaRenamed,
  schemaReplaced,
  ref,
  toOpenApiDocument,
  bundleFromOpenApi,
  readVersionChanges,
} from './core/versions/index.ts';
export type {
  ApiVersion,
  DefineVersionsOptions,
  DeprecatedFieldRemoved,
  ElementDocumentation,
  HeadDefinition,
  HttpMethod,
  Instruction,
  JsonSchema,
  OperationSpec,
  ResponseSpec,
  SchemaMap,
  SchemaType,
  ToOpenApiOptions,
  VersionBundle,
  VersionChange,
  VersionDeclaration,
  OpenApiVersionInput,
} from './core/versions/index.ts';
// The endpoint and transport changes (routes, statuses, headers, query parameters).
export { endpointMoved, endpointRemoved, headerRenamed, queryRenamed, statusChanged } from './core/versions/index.ts';
export type { EndpointInstruction, MigrationContext } from './core/versions/index.ts';
export { parseAccept, resolveVersion, type AcceptInfo, type ResolvedVersion } from './core/negotiation/index.ts';

// Lifecycle.
export {
  buildLifecycleDocument,
  checkDeprecationStatus,
  checkLifecycleConfig,
  checkLifecycleConfigShape,
  createConfigLifecycle,
  deprecationHeaders,
  lifecycleShapeErrors,
  LifecycleConfigSchema,
  evaluateVerdict,
  rescheduleDeprecation,
  scheduleDeprecation,
  versionListHeaders,
  DAY_MS,
  MONTH_MS,
} from './core/lifecycle/index.ts';
export { formatIsoInstant, parseIsoInstant } from './core/time/index.ts';
export type {
  Audience,
  ConfigLifecycleOptions,
  DeprecationHeaderStyle,
  DeprecationReason,
  DeprecationSchedule,
  DeprecationStatus,
  EndpointLifecycleConfig,
  InstantInput,
  LifecycleConfig,
  LifecycleDocument,
  LifecycleSource,
  LifecycleVerdict,
  LifecycleVersion,
  PolicyWarning,
  RescheduleDeprecationOptions,
  RescheduledDeprecation,
  ScheduleDeprecationOptions,
  ScheduledDeprecation,
  VersionLifecycleConfig,
} from './core/lifecycle/index.ts';

// Compatibility.
export { diffOpenApi, formatJson, formatMarkdown, formatText, summarize } from './core/compat/index.ts';
export type { Change, ChangeLevel, ChangeSummary, DiffOpenApiOptions, DiffResult } from './core/compat/index.ts';

// Migration guides.
export { createMigrationGuide, toHtml, toJson, toMarkdown } from './core/guide/index.ts';
export type { MigrationGuide, MigrationGuideOptions } from './core/guide/index.ts';

// OpenAPI style lint.
export { lintOpenApi, type LintFinding, type LintOptions } from './core/lint/index.ts';
