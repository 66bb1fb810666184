import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';

/** Runs once the version of a request is known: the lifecycle plugs in here (410, headers, usage). */
export type VersionedRequestHook = (options: {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
}) => void | Promise<void>;
