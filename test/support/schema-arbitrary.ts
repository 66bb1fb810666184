import fc from 'fast-check';
import type { JsonSchema, SchemaMap } from '../../src/core/versions/index.ts';

const componentRef = '#/components/schemas/';
// Small collections keep a run fast; the shapes, not the sizes, are under test.
const itemCap = 3;
const stringCap = 24;

/**
 * A fast-check arbitrary of values valid against a JSON Schema whose `$ref`s point at `schemas`
 * (`#/components/schemas/Name`). It covers what the project's schemas use: `type` (one or a
 * list), `enum`, `const`, `properties` with `required`, `items`, `oneOf`/`anyOf`, the string
 * limits, `pattern`, the formats `email`, `date-time`, `uri` and `uri-reference`, and numeric
 * bounds. Optional properties are sometimes left out; no property beyond `properties` is made.
 * Anything else throws, so a schema the generator cannot honour fails loudly instead of passing.
 */
export function arbitraryOf(options: {
  schemas: SchemaMap;
  schema: JsonSchema;
  depth?: number;
}): fc.Arbitrary<unknown> {
  const { schemas, schema, depth = 0 } = options;
  const next = (child: JsonSchema, extra = 0) => arbitraryOf({ schemas, schema: child, depth: depth + extra });
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.startsWith(componentRef) ? schema.$ref.slice(componentRef.length) : undefined;
    const target = name === undefined ? undefined : schemas[name];
    if (!target) throw new Error(`cannot generate ${schema.$ref}: not a component of the given schemas`);
    return next(target, 1);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) return fc.oneof(...(schema[key] as JsonSchema[]).map((s) => next(s)));
  }
  for (const key of ['allOf', 'not', 'if', 'patternProperties', 'dependentRequired', 'prefixItems']) {
    if (key in schema) throw new Error(`cannot generate a schema with ${key}: ${JSON.stringify(schema)}`);
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : [typeof schema.type === 'string' ? schema.type : inferType(schema)];
  return fc.oneof(...types.map((type) => ofType({ type, schema, next, depth })));
}

function inferType(schema: JsonSchema): string {
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return 'any';
}

interface OfTypeOptions {
  type: string;
  schema: JsonSchema;
  next: (child: JsonSchema, extra?: number) => fc.Arbitrary<unknown>;
  depth: number;
}

function ofType({ type, schema, next, depth }: OfTypeOptions): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integers(schema);
    case 'number':
      return numbers(schema);
    case 'string':
      return strings(schema);
    case 'any':
      return fc.constantFrom(null, true, 0, 'x', [], {});
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      // Deep in a recursive schema, only as many items as the schema demands.
      const maxLength = depth > 3 ? minLength : Math.max(minLength, Math.min(num(schema.maxItems) ?? itemCap, itemCap));
      return fc.array(next((schema.items ?? {}) as JsonSchema), { minLength, maxLength });
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const keys = Object.keys(props).filter((key) => depth <= 3 || required.includes(key));
      const model = Object.fromEntries(keys.map((key) => [key, next(props[key]!)]));
      return fc.record(model, { requiredKeys: keys.filter((key) => required.includes(key)) });
    }
    default:
      throw new Error(`cannot generate type ${type}`);
  }
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function integers(schema: JsonSchema): fc.Arbitrary<number> {
  const min = num(schema.minimum) ?? -1_000_000;
  const max = num(schema.maximum) ?? 1_000_000;
  return fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number);
}

function numbers(schema: JsonSchema): fc.Arbitrary<number> {
  return fc
    .double({ min: num(schema.minimum) ?? -1e9, max: num(schema.maximum) ?? 1e9, noNaN: true, noDefaultInfinity: true })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength) ?? Number.MAX_SAFE_INTEGER;
  const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  const base = (): fc.Arbitrary<string> => {
    if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u'));
    switch (schema.format) {
      case 'email':
        return fc.emailAddress();
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'uri':
        return fc.webUrl();
      case 'uri-reference':
        return fc.oneof(
          fc.webUrl(),
          fc.webPath().map((p) => p || '/'),
        );
      case undefined:
        return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, stringCap)) });
      default:
        throw new Error(`cannot generate string format ${String(schema.format)}`);
    }
  };
  return base().filter(fits);
}
