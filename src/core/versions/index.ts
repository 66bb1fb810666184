export { defineVersions, type DefineVersionsOptions, type VersionDeclaration } from './define-versions.ts';
export type { ApiVersion, MigrationPlan, VersionBundle } from './bundle-types.ts';
export { defineVersionChange, type VersionChange } from './version-change.ts';
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
  type DeprecatedFieldRemoved,
  type Instruction,
} from './instructions.ts';
export {
  endpointMoved,
  endpointRemoved,
  headerRenamed,
  queryRenamed,
  statusChanged,
  type EndpointInstruction,
} from './endpoint-instructions.ts';
export { endpointSource, type EndpointSource } from './endpoint-routes.ts';
export { readVersionChanges, type VersionChangeEntry } from './change-file.ts';
export { checkDeprecatedRemovals } from './check-deprecated-removals.ts';
export { createFieldSelector, withoutRequired } from './field-selection.ts';
export {
  methodOfMember,
  operationMembers,
  toOpenApiDocument,
  type OpenApiVersion,
  type ToOpenApiOptions,
  withPublishedNames,
} from './openapi.ts';
export { annotateElements, type ElementDocumentation } from './element-annotations.ts';
export { deprecatedOperation, verdictDeprecation, type DeprecationFacts } from './generator-extensions.ts';
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
export { bundleFromOpenApi, type OpenApiVersionInput } from './from-openapi.ts';
export { routablePath } from './check-definition.ts';
