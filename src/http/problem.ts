import type { FastifyReply } from 'fastify';
import { ErrorCode, errorTitles, VersionaryError } from '../core/errors/index.ts';
import { statusOf } from './status-table.ts';

/** An RFC 9457 problem details body. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: Array<{ pointer: string; detail: string }>;
  [extension: string]: unknown;
}

/**
 * The problem type URI of a code: a page the service serves at `/problems/<slug>`.
 *
 * @example
 * ```ts
 * problemType('NOT_FOUND') // '/problems/not-found'
 * ```
 */
export function problemType(code: ErrorCode): string {
  return `/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}

/**
 * Turn a {@link VersionaryError} into its status and problem body: the one problem writer.
 *
 * @example
 * ```ts
 * const { status, body } = toProblem(new VersionaryError({ code: 'NOT_FOUND', detail: 'No user 7.' }));
 * ```
 */
export function toProblem(error: VersionaryError, instance?: string): { status: number; body: ProblemBody } {
  const status = statusOf[error.code];
  const body: ProblemBody = {
    ...error.extensions,
    type: problemType(error.code),
    title: errorTitles[error.code],
    status,
    detail: error.detail,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return { status, body };
}

/**
 * Send an error as `application/problem+json` with its headers, `Cache-Control: no-store` and the
 * request's id as the `requestId` extension.
 *
 * @example
 * ```ts
 * return sendProblem(reply, new VersionaryError({ code: ErrorCode.NotFound, detail: 'No such route.' }));
 * ```
 */
export function sendProblem(reply: FastifyReply, error: VersionaryError): FastifyReply {
  const { status, body } = toProblem(error, reply.request.url.split('?')[0]);
  // The request id ties a problem a client reports to the server's log lines.
  body.requestId = reply.request.id;
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .header('cache-control', 'no-store')
    .serializer(JSON.stringify)
    .send(body);
}

/**
 * The catch-all for a failure nobody expected: logged in full, answered without internals.
 *
 * @example
 * ```ts
 * sendProblem(reply, internalError());
 * ```
 */
export function internalError(): VersionaryError {
  return new VersionaryError({ code: ErrorCode.Internal, detail: 'The server failed to answer this request. It has been logged.' });
}
