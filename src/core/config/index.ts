export { createSchemaValidator } from './schema-validator.ts';
export type { SchemaValidator, SchemaValidatorOptions, UnknownKeyText } from './schema-validator.ts';
