import type { FastifyRequest } from 'fastify';
import { redactUrl } from './redact-url.ts';

/** Fastify's request log serializer, with {@link redactUrl} applied to the URL. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
