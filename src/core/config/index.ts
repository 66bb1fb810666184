export { createSchemaValidator, type SchemaValidator } from './schema-validator.ts';
export { pickDefined } from './pick-defined.ts';
