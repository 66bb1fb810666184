export { createSchemaValidator, type SchemaValidator, pickDefined } from './schema-validator.ts';
