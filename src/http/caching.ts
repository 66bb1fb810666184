import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Does an `If-None-Match` or `If-Match` list contain this entity tag? (`*` matches any.)
 *
 * @example
 * ```ts
 * etagMatches('"a", "b"', '"b"') // true
 * ```
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * A strong entity tag from the bytes of a representation.
 *
 * @example
 * ```ts
 * contentTag('[]') // '"c-…"'
 * ```
 */
export function contentTag(payload: string | Buffer): string {
  return `"c-${createHash('sha1').update(payload).digest('base64url').slice(0, 22)}"`;
}

/**
 * Every response says whether it may be cached: successful GETs are `private, no-cache` with a
 * strong ETag (answered 304 when `If-None-Match` matches); writes and errors are `no-store`.
 *
 * @example
 * ```ts
 * installCaching(app);
 * ```
 */
export function installCaching(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const safe = request.method === 'GET' || request.method === 'HEAD';
    if (!safe || reply.statusCode !== 200) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      etag = contentTag(payload);
      reply.header('etag', etag);
    }
    if (etag && etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  });
}
