import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';

/** Runs once the version of a request is known: the lifecycle plugs in here (410, headers, usage). */
export type VersionedRequestHook = ((options: {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
}) => void | Promise<void>) & {
  /** Whether the hook can do anything for a key now: its step is compiled only where it can. */
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
