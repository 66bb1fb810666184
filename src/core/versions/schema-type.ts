import type { Static, TSchema } from '@sinclair/typebox';

type ComponentPrefix = '#/components/schemas/';

// Refs can recurse (a tree of comments); past this depth a value is `unknown` rather than a
// compiler error. Counted as a tuple, the only counter the type system has.
type MaxDepth = [unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown];

/**
 * The TypeScript type of a value a JSON Schema accepts, computed by the compiler from the schema
 * itself: declare schemas `as const` (or inline in `defineVersions`) and handlers are typed from
 * the very objects that go on the wire. A TypeBox schema gives its own static type. `$ref`s to
 * `#/components/schemas/<Name>` resolve in `Components`. Covers `type` (and type lists), `enum`,
 * `const`, `properties` with `required`, `additionalProperties`, `items`, `anyOf`, `oneOf` and
 * `allOf`; any other keyword adds no constraint to the type (`format`, `minimum`, `pattern`…
 * are checked at run time only).
 *
 * @example
 * ```ts
 * const Book = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, isbn: { type: 'string' } } } as const;
 * type Book = SchemaType<typeof Book>; // { id: number; isbn?: string }
 * ```
 */
export type SchemaType<S, Components = Record<never, never>> = Resolve<S, Components, []>;

type Resolve<S, C, D extends unknown[]> = D['length'] extends MaxDepth['length']
  ? unknown
  : S extends TSchema
    ? Static<S>
    : S extends { readonly $ref: `${ComponentPrefix}${infer Name}` }
      ? Name extends keyof C
        ? Resolve<C[Name], C, [...D, unknown]>
        : unknown
      : S extends { readonly const: infer V }
        ? Mutable<V>
        : S extends { readonly enum: readonly (infer V)[] }
          ? V
          : S extends { readonly anyOf: readonly (infer M)[] }
            ? Each<M, C, D>
            : S extends { readonly oneOf: readonly (infer M)[] }
              ? Each<M, C, D>
              : S extends { readonly allOf: readonly unknown[] }
                ? AllOf<S['allOf'], C, D>
                : S extends { readonly type: infer T }
                  ? T extends readonly (infer U)[]
                    ? OfType<U, S, C, D>
                    : OfType<T, S, C, D>
                  : unknown;

type Each<M, C, D extends unknown[]> = M extends unknown ? Resolve<M, C, D> : never;

type AllOf<L, C, D extends unknown[]> = L extends readonly [infer First, ...infer Rest]
  ? Resolve<First, C, D> & AllOf<Rest, C, D>
  : unknown;

type OfType<T, S, C, D extends unknown[]> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? Resolve<I, C, [...D, unknown]>[]
            : unknown[]
          : T extends 'object'
            ? ObjectType<S, C, [...D, unknown]>
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type ObjectType<S, C, D extends unknown[]> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: Resolve<P[K], C, D> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Resolve<P[K], C, D>;
      } & Extra<S, C, D>
    >
  : S extends { readonly additionalProperties: infer A }
    ? A extends false
      ? Record<string, never>
      : A extends true
        ? Record<string, unknown>
        : Record<string, Resolve<A, C, D>>
    : Record<string, unknown>;

// A schema for additional members types them; absent or `true`, they are left out of the type,
// so a typo in a member name is a compiler error rather than an extra the serializer drops.
type Extra<S, C, D extends unknown[]> = S extends { readonly additionalProperties: infer A }
  ? A extends boolean
    ? Record<never, never>
    : Record<string, Resolve<A, C, D>>
  : Record<never, never>;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

type Mutable<V> = V extends readonly unknown[]
  ? { -readonly [K in keyof V]: Mutable<V[K]> }
  : V extends object
    ? { -readonly [K in keyof V]: Mutable<V[K]> }
    : V;
