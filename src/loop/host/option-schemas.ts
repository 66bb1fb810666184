import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { createSchemaValidator, type SchemaValidator } from '../../core/config/index.ts';
import { nearestName } from '../../core/text/index.ts';

// JSON Schema has no type for a function: `isFunction` is the validator's keyword for one.

export const fn = <T>(errorText = 'must be a function'): TUnsafe<T> => Type.Unsafe<T>({ isFunction: true, errorText });

/** A schema whose TypeScript type is `T` (a readonly array, an object handed over in code). */
export const typedAs = <T>(schema: TSchema): TUnsafe<T> => Type.Unsafe<T>(schema);

export const bool = (): ReturnType<typeof Type.Boolean> => Type.Boolean({ errorText: 'must be a boolean' });

export const text = (): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, errorText: 'must be a non-empty string' });

/** The check of a part's options against its schema: every problem at once, each naming its option. */
export function optionsValidator<T extends TSchema>(schema: T): SchemaValidator<T> {
  return createSchemaValidator(schema, { unknownKey });
}

function unknownKey({ where, key, known }: { where: string; key: string; known: string[] }): string {
  const near = nearestName(key, known);
  return `${where ? `${where}.` : ''}${key} is not an option of the loop${near ? `; did you mean ${near}?` : ''}`;
}

export const noOptionsSchema = Type.Object({}, { additionalProperties: false });
