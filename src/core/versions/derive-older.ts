import { deriveEndpoint, withMemberRenamed } from './derive-endpoints.ts';
import type { Instruction } from './instructions.ts';
import { missingAtPointer } from './schema-pointer.ts';
import { requiredOf } from './schema-walk.ts';
import type { JsonSchema, OperationSpec, SchemaMap } from './types.ts';

interface DeriveResult {
  schemas: SchemaMap;
  /** The older version's published name of each schema renamed so far (`schema-renamed`), by its own. */
  names: Record<string, string>;
  operations: OperationSpec[];
  problems: string[];
}

interface DeriveOlderOptions {
  /** Name of the newer version, for messages. */
  version: string;
  schemas: SchemaMap;
  operations: OperationSpec[];
  instructions: Instruction[];
  /** The newer version's published names of renamed schemas, by their own (the head's) names. */
  names?: Record<string, string>;
}

/** Undo one version's instructions, giving the previous version; what they name and it lacks is a problem. */
export function deriveOlder(options: DeriveOlderOptions): DeriveResult {
  const schemas: SchemaMap = { ...options.schemas };
  let operations = [...options.operations];
  const problems: string[] = [];
  const names = { ...options.names };
  const fail = (text: string) => problems.push(`${options.version}: ${text}`);

  for (const step of options.instructions) {
    if (!('schema' in step)) {
      operations = deriveEndpoint({ step, version: options.version, operations, fail });
      continue;
    }
    const original = schemas[step.schema];
    if (!original) {
      fail(`${step.op} names schema "${step.schema}", which the version does not define`);
      continue;
    }
    if (step.op === 'schema-replaced') {
      // The older body is read at `previousFrom` in the newer one: a pointer to nothing would let
      // every newer body through as it is.
      const missing =
        step.previousFrom === undefined ? undefined : missingAtPointer(original, step.previousFrom, options.schemas);
      if (missing !== undefined)
        fail(`schema-replaced previousFrom ${step.previousFrom} names ${missing}, which ${step.schema} does not have`);
      schemas[step.schema] = structuredClone(step.previous);
      continue;
    }
    if (step.op === 'schema-renamed') {
      const taken = Object.keys(schemas).find((name) => (names[name] ?? name) === step.previousName);
      if (taken !== undefined)
        fail(
          `schema-renamed names ${step.schema}'s previous name "${step.previousName}", which the version already uses`,
        );
      else names[step.schema] = step.previousName;
      continue;
    }
    if ((step.op === 'enum-values-added' || step.op === 'enum-values-removed') && step.field === undefined) {
      // The schema is the enum itself: every member that refers to it changes with it.
      const enumSchema: JsonSchema = { ...original };
      schemas[step.schema] = enumSchema;
      undoEnumStep({ where: step.schema, field: enumSchema, step, fail });
      continue;
    }
    if (step.field === undefined) continue;
    // Copy on write: schemas may share property objects, and each version must own its edits.
    const schema: JsonSchema = { ...original };
    schemas[step.schema] = schema;
    const props = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) };
    schema.properties = props;
    const present = Object.hasOwn(props, step.field);
    const where = `${step.schema}.${step.field}`;
    if (step.op === 'field-removed') {
      // The older value is read at `from` in the newer body: a pointer to nothing would never find it.
      const missing = step.from === undefined ? undefined : missingAtPointer(original, step.from, options.schemas);
      if (missing !== undefined)
        fail(`field-removed from ${step.from} names ${missing}, which ${step.schema} does not have`);
      if (present) fail(`field-removed names ${where}, which the version still has`);
      else {
        props[step.field] = structuredClone(step.definition);
        if (step.required) schema.required = [...requiredOf(schema), step.field];
      }
      continue;
    }
    if (!present) {
      fail(`${step.op} names ${where}, which the version does not have`);
      continue;
    }
    if (step.op === 'field-added') {
      delete props[step.field];
      const required = requiredOf(schema).filter((f) => f !== step.field);
      if (required.length > 0) schema.required = required;
      else delete schema.required;
    } else if (step.op === 'field-retyped') {
      props[step.field] = structuredClone(step.previous);
    } else if (step.op === 'field-renamed') {
      if (Object.hasOwn(props, step.previousName))
        fail(`field-renamed names ${where}'s previous name "${step.previousName}", which ${step.schema} also has`);
      else schemas[step.schema] = withMemberRenamed(schema, step.field, step.previousName);
    } else {
      const field = { ...(props[step.field] as JsonSchema) };
      props[step.field] = field;
      undoEnumStep({ where, field, step, fail });
    }
  }
  return { schemas, operations, problems, names };
}

/** Where an enum instruction applies, the instruction and how to report a mistake in it. */
interface EnumStep {
  where: string;
  field: JsonSchema;
  step: Extract<Instruction, { op: 'enum-values-added' | 'enum-values-removed' }>;
  fail: (text: string) => void;
}

/** The older enum: without the values the step added, or with those it removed. */
function undoEnumStep({ where, field, step, fail }: EnumStep): void {
  const added = step.op === 'enum-values-added';
  const values = Array.isArray(field.enum) ? (field.enum as unknown[]) : undefined;
  if (!values) return void fail(`${step.op} names ${where}, which is not an enum`);
  for (const value of step.values) {
    if (values.includes(value) !== added)
      fail(`${step.op} names ${where} value "${value}", which the enum ${added ? 'lacks' : 'still has'}`);
  }
  const older = added
    ? values.filter((v) => !step.values.includes(v as string))
    : [...values, ...step.values.filter((v) => !values.includes(v))];
  field.enum = older;
  // A value added maps down to one the older enum has; a value removed maps up to one the newer has.
  const [map, target] = added ? [step.mapDownTo, older] : [step.mapUpTo, values];
  for (const [from, to] of Object.entries(map ?? {})) {
    if (!step.values.includes(from))
      fail(`${step.op} maps "${from}" at ${where}, which is not one of the ${added ? 'added' : 'removed'} values`);
    if (!target.includes(to))
      fail(`${step.op} maps "${from}" to "${to}" at ${where}, which the ${added ? 'older' : 'newer'} enum lacks`);
  }
}
