import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ElementDeprecation } from '../core/lifecycle/index.ts';
import type { ApiVersion, OperationSpec, VersionBundle } from '../core/versions/index.ts';
import type { OperationHandler } from './operation-types.ts';

/** Hears each call that reached an operation: the version's name and `METHOD /template`. */
export type OperationCallListener = (request: FastifyRequest, version: string, endpoint: string) => void;

export interface VersionedApiOptions {
  bundle: VersionBundle;
  handlers: Record<string, OperationHandler>;
  prefix: string;
  vendor: string;
  onVersionedRequest?: VersionedRequestHook[];
  /** Told once per call routed to an operation, before the hooks; not for `OPTIONS` and 405 answers. */
  onOperationCall?: OperationCallListener;
  clientIdOf?: (request: FastifyRequest) => string;
  validateResponses?: boolean;
  /** Deprecated fields and query parameters: `onUse` hears each request that uses one, and may throw to refuse it. */
  elementUses?: { elements: readonly ElementDeprecation[]; onUse: (options: ElementUseEvent) => void | Promise<void> };
}

export type ElementUseEvent = Parameters<VersionedRequestHook>[0] & { used: readonly ElementDeprecation[] };

/** Runs once the version of a request is known: the lifecycle plugs in here (410, headers, usage). */
export type VersionedRequestHook = ((options: {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
}) => void | Promise<void>) & {
  /**
   * Whether the hook can do anything for a version and operation as things stand (every one when
   * absent): its step is compiled only into the routes where it can. Asked again after the
   * pipeline's plans are invalidated.
   */
  appliesTo?: (key: { version: string; method: string; path: string }) => boolean;
};

/** The hook's `appliesTo` for one route: the operation's key under each method it may be called as. */
export function hookApplies(
  hook: VersionedRequestHook,
  key: { version: string; path: string; methods: readonly string[] },
): boolean {
  const { appliesTo } = hook;
  return !appliesTo || key.methods.some((method) => appliesTo({ version: key.version, method, path: key.path }));
}
