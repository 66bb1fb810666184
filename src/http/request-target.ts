import type { IncomingMessage } from 'node:http';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { targetProblem, targetRefusalOf } from '../core/rulebook/canonical-path.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';

/**
 * Why the message's framing is refused, or `undefined`: a repeated `Host`, `Transfer-Encoding`
 * on HTTP/1.0, and a transfer coding other than `chunked` alone (nginx answers all three with
 * 400 or 501). Two parsers in a chain that frame a message differently is how requests are smuggled.
 */
function framingFaultOf(req: IncomingMessage): string | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'Host is repeated';
  const coding = req.headers['transfer-encoding'];
  if (coding === undefined) return undefined;
  if (req.httpVersion === '1.0') return 'HTTP/1.0 has no Transfer-Encoding';
  if (coding.trim().toLowerCase() !== 'chunked') return 'the only transfer coding accepted is "chunked"';
  return undefined;
}

/** The problem of a refused target (404: the spec's "invalid ID or URI") or framing (400), else `undefined`. */
export function strictRequestError(req: IncomingMessage): VersionaryError | undefined {
  const refused = targetRefusalOf(req.url ?? '/');
  if (refused) return targetProblem(refused);
  const fault = framingFaultOf(req);
  if (fault)
    return new VersionaryError({
      code: ErrorCode.MalformedRequest,
      detail: `The request is framed ambiguously: ${fault}.`,
      headers: { connection: 'close' },
    });
  return undefined;
}

/** Provided (with `{}`) by the host, first of all. */
export const strictRequestsKey = stepKey<object>('strict-requests');

/**
 * The `gate:strict-requests` step: refuse ambiguous targets and framings (see `targetRefusalOf` in
 * `core/rulebook`, {@link framingFaultOf}) before any other step. Router failures on the same
 * targets (a bad `%` escape) are refused the same way by the `frameworkErrors` of `serviceServerOptions`.
 */
export const strictRequestsStep = defineStep({
  needs: strictRequestsKey,
  name: 'strict-requests',
  thin: true,
  phase: 'gate',
  create: () => (request) => {
    const error = strictRequestError(request.raw);
    if (error) throw error;
  },
});
