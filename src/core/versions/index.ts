export { defineVersions } from './define-versions.ts';
export type { DefineVersionsOptions, VersionDeclaration } from './define-versions.ts';
export type { ApiVersion, MigrationPlan, VersionBundle } from './bundle-types.ts';
export { defineVersionChange } from './version-change.ts';
export type { VersionChange } from './version-change.ts';
export {
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
} from './instructions.ts';
export type { DeprecatedFieldRemoved, Instruction } from './instructions.ts';
export { endpointMoved, endpointRemoved, headerRenamed, queryRenamed, statusChanged } from './endpoint-instructions.ts';
export type { EndpointInstruction } from './endpoint-instructions.ts';
export { endpointSource, type EndpointSource } from './endpoint-routes.ts';
export { readVersionChanges, type VersionChangeEntry } from './change-file.ts';
export { checkDeprecatedRemovals } from './check-deprecated-removals.ts';
export { createFieldSelector, withoutRequired } from './field-selection.ts';

export { toOpenApiDocument } from './openapi.ts';
export { withPublishedNames } from './published-names.ts';
export type { OpenApiVersion, ToOpenApiOptions } from './openapi.ts';

export { annotateElements } from './element-annotations.ts';
export type { ElementDocumentation } from './element-annotations.ts';
export { deprecatedOperation, verdictDeprecation } from './generator-extensions.ts';
export type { DeprecationFacts } from './generator-extensions.ts';
export { problemSchema } from './problem-schema.ts';
export { isPlainObject, ref, refName } from './schema-walk.ts';

export type { SchemaType } from './schema-type.ts';
export type {
  HeadDefinition,
  HttpMethod,
  JsonSchema,
  MigrationContext,
  OperationSpec,
  ResponseSpec,
  SchemaMap,
} from './types.ts';
export { bundleFromOpenApi } from './from-openapi.ts';
export type { OpenApiVersionInput } from './from-openapi.ts';
export { routablePath } from './check-definition.ts';
