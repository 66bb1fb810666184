import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ElementDeprecation } from '../core/lifecycle/index.ts';
import type { ApiVersion, OperationSpec, VersionBundle } from '../core/versions/index.ts';
import type { OperationHandler } from './operation-types.ts';
import type { VersionedRequestHook } from './version-hooks.ts';

/** Hears each call that reached an operation: the version's name and `METHOD /template`. */
export type OperationCallListener = (request: FastifyRequest, version: string, endpoint: string) => void;

/** Options for `registerVersionedApi`. */
export interface VersionedApiOptions {
  bundle: VersionBundle;
  handlers: Record<string, OperationHandler>;
  /** Where the API lives, for example `/api`. */
  prefix: string;
  vendor: string;
  onVersionedRequest?: VersionedRequestHook[];
  /**
   * Told once per call routed to an operation (`endpoint` is `METHOD /template`), before the
   * hooks; not for the `OPTIONS` and 405 answers of a path.
   */
  onOperationCall?: OperationCallListener;
  /** Who is calling; defaults to the remote address. */
  clientIdOf?: (request: FastifyRequest) => string;
  /** Check every response body against its version's schema before it goes out (default true). */
  validateResponses?: boolean;
  /** Deprecated fields and query parameters: `onUse` hears each request that uses one, and may throw to refuse it. */
  elementUses?: {
    elements: readonly ElementDeprecation[];
    onUse: (options: ElementUseEvent) => void | Promise<void>;
  };
}

/** A request that uses deprecated elements, told to {@link VersionedApiOptions.elementUses}. */
export interface ElementUseEvent {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
  used: readonly ElementDeprecation[];
}
