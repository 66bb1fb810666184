import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Visible ASCII that is safe in a header and a log line: letters, digits and `._:-`, up to 128
// characters, so a UUID, a W3C trace id or a load balancer's id all pass and nothing else does.
const wellFormed = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The id of a request: the incoming `X-Request-Id` when it is well-formed (one value, at most 128
 * characters of `[A-Za-z0-9._:-]`), else a random UUID, unique across instances and restarts.
 */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && wellFormed.test(incoming) ? incoming : randomUUID();
}
