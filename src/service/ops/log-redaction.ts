import type { FastifyRequest } from 'fastify';

// Query parameters that carry credentials when a client puts them in the URL (against advice).
const secretParam = /([?&](?:api[_-]?key|key|token|access[_-]?token|auth|authorization|password|secret|jwt)=)[^&#]*/gi;

/**
 * The request as logged: method, URL with credential-like query values replaced by `[REDACTED]`,
 * host and peer. Headers are never logged, so `Authorization` and `X-API-Key` cannot leak.
 *
 * @example
 * ```ts
 * Fastify({ logger: { serializers: { req: serializeRequest } } });
 * ```
 */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Replace the values of credential-like query parameters.
 *
 * @example
 * ```ts
 * redactUrl('/api/v2/users?api_key=vk_1&limit=5') // '/api/v2/users?api_key=[REDACTED]&limit=5'
 * ```
 */
export function redactUrl(url: string): string {
  return url.replace(secretParam, '$1[REDACTED]');
}
