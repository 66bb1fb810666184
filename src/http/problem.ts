import type { FastifyReply, FastifyRequest } from 'fastify';
import { echo, ErrorCode, errorTitles, VersionaryError } from '../core/errors/index.ts';
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
    // A page the service serves at `/problems/<slug>`.
    type: `/problems/${error.code.toLowerCase().replaceAll('_', '-')}`,
    title: errorTitles[error.code],
    status,
    // A last bound on what any message repeats; the messages themselves echo at most 200 characters.
    detail: echo(error.detail, 2000),
    code: error.code,
    // A cut URI would name another resource, so an overlong one is left out rather than cut.
    ...(instance && instance.length <= 2000 ? { instance } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return { status, body };
}

/**
 * Send an error as `application/problem+json` with its headers, `Cache-Control: no-store`,
 * `X-Content-Type-Options: nosniff` and the request's id as the `requestId` extension.
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
  return (
    reply
      .code(status)
      .header('content-type', 'application/problem+json; charset=utf-8')
      .header('cache-control', 'no-store')
      // Also here: router failures are answered before any hook runs.
      .header('x-content-type-options', 'nosniff')
      .serializer(JSON.stringify)
      .send(body)
  );
}

/** The catch-all for a failure nobody expected; its detail claims a log line only when `logged`. */
export function internalError(options: { logged?: boolean } = {}): VersionaryError {
  const detail = options.logged
    ? "The server failed to answer this request. The error has been logged with this problem's requestId."
    : 'The server failed to answer this request.';
  return new VersionaryError({ code: ErrorCode.Internal, detail });
}

/** Log an unexpected failure in full through the request's logger, and say whether it writes errors. */
export function logFailure(request: FastifyRequest, error: unknown, message = 'unhandled error'): boolean {
  request.log.error({ err: error }, message);
  return writesErrors(request);
}

/** Whether the request's logger writes error lines: false with no logger, or at level `silent`. */
export function writesErrors(request: FastifyRequest): boolean {
  const log = request.log as { isLevelEnabled?: (level: string) => boolean; level?: unknown };
  if (typeof log.isLevelEnabled === 'function') return log.isLevelEnabled('error');
  // Fastify's stand-in when no logger is configured has neither a level nor isLevelEnabled.
  return typeof log.level === 'string' && log.level !== 'silent' && log.level !== 'fatal';
}
