import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';

// The building blocks of the parts' option schemas. JSON Schema has no type for a function:
// `isFunction` is the validator's keyword for one, and the TypeScript type is the one given here.

/** A function option, typed as `T`. */
export const fn = <T>(errorText = 'must be a function'): TUnsafe<T> => Type.Unsafe<T>({ isFunction: true, errorText });

/** A schema whose TypeScript type is `T` (a readonly array, an object handed over in code). */
export const typedAs = <T>(schema: TSchema): TUnsafe<T> => Type.Unsafe<T>(schema);

/** A boolean option. */
export const bool = (): ReturnType<typeof Type.Boolean> => Type.Boolean({ errorText: 'must be a boolean' });

/** A non-empty string option. */
export const text = (): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, errorText: 'must be a non-empty string' });
