import type { HeadDefinition, SchemaType } from '../core/versions/index.ts';
import type { OperationContext, OperationResult } from './operation-types.ts';

/**
 * What handler types are read from: a bundle from `defineVersions`, or its head (`as const`).
 *
 * @example
 * ```ts
 * const handlers = defineHandlers(bundle, { 'books.get': async ({ params }) => ({ status: 200, body: await books.get(params.id) }) });
 * ```
 */
export type HandlerSource = HeadDefinition | { head: HeadDefinition };

type HeadOf<A> = A extends { head: infer H extends HeadDefinition } ? H : A extends HeadDefinition ? A : never;
type Operations<A> = HeadOf<A>['operations'][number];
type Components<A> = HeadOf<A>['schemas'];
type OperationOf<A, Id> = Extract<Operations<A>, { id: Id }>;

/**
 * The type of a named component schema of the head: what a handler returns for it.
 *
 * @example
 * ```ts
 * type Book = ComponentType<typeof bundle, 'Book'>; // { id: number; title: string; isbn?: string }
 * ```
 */
export type ComponentType<A extends HandlerSource, Name extends keyof Components<A>> = ComponentOf<A, Name>;

type ComponentOf<A, Name> = Name extends keyof Components<A> ? SchemaType<Components<A>[Name], Components<A>> : unknown;

/**
 * Every operation id of the head.
 *
 * @example
 * ```ts
 * const id: OperationId<typeof bundle> = 'books.get';
 * ```
 */
export type OperationId<A extends HandlerSource> = Operations<A>['id'];

type ParamNames<P> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

// Each path parameter arrives as the raw segment: the handler decides what a malformed one means.
type ParamsOf<O> = O extends { path: infer P } ? { [K in ParamNames<P>]: string } : Record<string, string>;

// `integer` members arrive as numbers (the `input:query-integers` step), the rest as strings.
type QueryOf<O> = O extends { query: infer Q }
  ? unknown extends SchemaType<Q>
    ? LooseQuery
    : SchemaType<Q>
  : Record<string, never>;
type LooseQuery = Record<string, string | number | undefined>;

type BodyOf<A, O> = O extends { body: infer Name } ? ComponentOf<A, Name> : undefined;

type ResultExtras = Omit<OperationResult, 'status' | 'body'>;
type ResultOf<A, O> = O extends { responses: infer R }
  ? {
      [S in keyof R & number]: R[S] extends { schema: infer Name }
        ? { status: S; body: ComponentOf<A, Name> } & ResultExtras
        : { status: S; body?: undefined } & ResultExtras;
    }[keyof R & number]
  : OperationResult;

/**
 * What the handler of one operation receives: params, query and body typed (the body migrated up).
 *
 * @example
 * ```ts
 * const get = async (ctx: HandlerContext<typeof bundle, 'books.get'>) => books.get(ctx.params.id);
 * ```
 */
export type HandlerContext<A extends HandlerSource, Id extends OperationId<A>> = Omit<
  OperationContext,
  'params' | 'query' | 'body'
> & {
  params: ParamsOf<OperationOf<A, Id>>;
  query: QueryOf<OperationOf<A, Id>>;
  body: BodyOf<A, OperationOf<A, Id>>;
};

/**
 * What the handler of one operation may return: a documented status with its schema's body, if any.
 *
 * @example
 * ```ts
 * const found: HandlerResult<typeof bundle, 'books.get'> = { status: 200, body: { id: 1, title: 'Dune', author: 'Herbert' } };
 * ```
 */
export type HandlerResult<A extends HandlerSource, Id extends OperationId<A>> = ResultOf<A, OperationOf<A, Id>>;

/**
 * The handler of one operation, typed from its declaration.
 *
 * @example
 * ```ts
 * const get: TypedHandler<typeof bundle, 'books.get'> = async ({ params }) => ({ status: 200, body: await books.get(params.id) });
 * ```
 */
export type TypedHandler<A extends HandlerSource, Id extends OperationId<A>> = (
  context: HandlerContext<A, Id>,
) => Promise<HandlerResult<A, Id>>;

/**
 * One typed handler per operation of the head (`satisfies Partial<HandlerMap<…>>` for a part of them).
 *
 * @example
 * ```ts
 * const bookHandlers = { 'books.list': async () => ({ status: 200, body: [] }) } satisfies Partial<HandlerMap<typeof bundle>>;
 * ```
 */
export type HandlerMap<A extends HandlerSource> = { [Id in OperationId<A>]: TypedHandler<A, Id> };
