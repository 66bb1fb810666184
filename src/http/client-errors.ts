import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { unreadableTargetProblem } from '../core/rulebook/canonical-path.ts';
import { toProblem } from './problem.ts';
import { securityHeaders } from './security-headers.ts';

const lengthRule = 'Content-Length must appear once, as a number, and never beside Transfer-Encoding.';
const malformed = (detail: string) => ({ code: ErrorCode.MalformedRequest, detail });

/** What Node's HTTP parser (llhttp) reports, by error code: the problem each one answers with. */
const byParserCode: Record<string, { code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: ErrorCode.HeadersTooLarge,
    detail: 'The request line and headers are larger than the limit (64 KiB).',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: ErrorCode.RequestTimeout,
    detail: 'The request did not arrive in time; the connection is closed.',
  },
  // llhttp reports a repeated Content-Length and one beside Transfer-Encoding under either code.
  HPE_UNEXPECTED_CONTENT_LENGTH: malformed(lengthRule),
  HPE_INVALID_CONTENT_LENGTH: malformed(lengthRule),
  HPE_INVALID_TRANSFER_ENCODING: malformed('Transfer-Encoding must end with chunked.'),
  HPE_INVALID_CHUNK_SIZE: malformed('The chunked body is malformed: a chunk size is not hexadecimal.'),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: malformed('The chunked body is malformed: chunk extensions are too long.'),
  HPE_INVALID_HEADER_TOKEN: malformed('A header name or value holds a character HTTP does not allow.'),
  HPE_INVALID_METHOD: malformed('The request method is not valid.'),
  // Worded by core: nginx answers the same target with the same problem, from the decision table.
  HPE_INVALID_URL: malformed(unreadableTargetProblem().detail),
  HPE_INVALID_VERSION: malformed('The HTTP version is not valid.'),
};

/** A parser error's problem, with `Connection: close` since the stream can no longer be trusted. */
function clientErrorResponse(error: { code?: string }): string {
  const known = byParserCode[error.code ?? ''] ?? malformed('The request is not valid HTTP/1.1.');
  const { status, body } = toProblem(new VersionaryError(known));
  const text = JSON.stringify(body);
  const headers = [
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Cache-Control: no-store',
    ...Object.entries(securityHeaders).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${headers.join('\r\n')}\r\n\r\n${text}`;
}

/** Answer Node's parser errors (431, 408, bad framing…) with a problem body, then close. */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way (a timeout mid-response) cannot be replaced by another.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || started) {
    socket.destroy();
    return;
  }
  // end() flushes the answer before closing; the timer frees a socket whose peer never reads.
  socket.end(clientErrorResponse(error));
  setTimeout(() => socket.destroy(), 2000).unref();
}
