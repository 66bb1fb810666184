import type { Clock } from '../../core/clock/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { OperationHandler, VersionedRequestHook } from '../../http/index.ts';
import type { Storage } from '../../kernel/ports/index.ts';
import type { LifecycleRuntime } from './runtime.ts';
import type { LoopForward } from './forward-feature.ts';

/**
 * Options of the lifecycle part: the API's handlers.
 *
 * @example
 * ```ts
 * const options: LoopLifecycleOptions = { handlers: { 'books.list': async () => ({ status: 200, body: [] }) } };
 * ```
 */
export interface LoopLifecycleOptions {
  /**
   * One handler per operation id, in the newest representation; or a function of the loop's
   * storage, clock, bundle and stored lifecycle that returns them. Required unless `forward` is given.
   */
  handlers?:
    | Record<string, OperationHandler>
    | ((context: LoopHandlersContext) => Record<string, OperationHandler> | Promise<Record<string, OperationHandler>>);
  /** Instead of handlers, forward every version to an upstream (`versionary gateway` does). */
  forward?: LoopForward;
  /** Run once per versioned request, after negotiation (the routing plugin's `onVersionedRequest`). */
  onVersionedRequest?: VersionedRequestHook[];
  /**
   * `true` when the loop's parts are the whole app (the reference service, the gateway): the
   * root's unknown paths answer the loop's problems, and every answer carries the version list
   * headers. By default the app keeps its root, and the list goes on the API's answers only.
   */
  ownsApp?: boolean;
}

/** What a `handlers` function is given: the loop's storage and clock, the bundle and the stored lifecycle. */
export interface LoopHandlersContext {
  storage: Storage;
  clock: Clock;
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
}
