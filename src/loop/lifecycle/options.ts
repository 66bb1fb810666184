import { Type, type Static } from '@sinclair/typebox';
import type { Clock } from '../../core/clock/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { OperationHandler, VersionedRequestHook } from '../../http/index.ts';
import type { Storage } from '../../kernel/ports/index.ts';
import { bool, fn, text, typedAs } from '../host/option-schemas.ts';
import type { LifecycleRuntime } from './runtime.ts';
import type { LoopForward } from './forward-feature.ts';

type Handlers =
  | Record<string, OperationHandler>
  | ((context: LoopHandlersContext) => Record<string, OperationHandler> | Promise<Record<string, OperationHandler>>);

/** The lifecycle part's options, checked at registration; their type is {@link LoopLifecycleOptions}. */
export const lifecycleOptionsSchema = Type.Object(
  {
    /**
     * One handler per operation id, in the newest representation; or a function of the loop's
     * storage, clock, bundle and stored lifecycle that returns them. Required unless `forward` is given.
     */
    handlers: Type.Optional(
      typedAs<Handlers>(
        Type.Union([Type.Object({}, { additionalProperties: fn() }), fn()], {
          errorText: 'must be an object of one handler per operation id, or a function returning one',
        }),
      ),
    ),
    /** Instead of handlers, forward every version to an upstream (`versionary gateway` does). */
    forward: Type.Optional(
      typedAs<LoopForward>(
        Type.Object(
          { upstreams: Type.Object({}), documents: Type.Object({}), clientHeader: text(), keepsCredential: bool() },
          { errorText: 'must be { upstreams, documents, clientHeader, keepsCredential }' },
        ),
      ),
    ),
    /** Run once per versioned request, after negotiation (the routing plugin's `onVersionedRequest`). */
    onVersionedRequest: Type.Optional(
      typedAs<VersionedRequestHook[]>(Type.Array(fn(), { errorText: 'must be an array of functions' })),
    ),
    /**
     * `true` when the loop's parts are the whole app (the reference service, the gateway): the
     * root's unknown paths answer the loop's problems, and every answer carries the version list
     * headers. By default the app keeps its root, and the list goes on the API's answers only.
     */
    ownsApp: Type.Optional(bool()),
  },
  { additionalProperties: false },
);

/**
 * Options of the lifecycle part: the API's handlers.
 *
 * @example
 * ```ts
 * const options: LoopLifecycleOptions = { handlers: { 'books.list': async () => ({ status: 200, body: [] }) } };
 * ```
 */
export type LoopLifecycleOptions = Static<typeof lifecycleOptionsSchema>;

/** What a `handlers` function is given: the loop's storage and clock, the bundle and the stored lifecycle. */
export interface LoopHandlersContext {
  storage: Storage;
  clock: Clock;
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
}
