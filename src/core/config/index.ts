export { createSchemaValidator } from './schema-validator.ts';
export type { SchemaValidator } from './schema-validator.ts';
export { pickDefined } from './pick-defined.ts';
