import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';

/**
 * The single admin check in front of the management API. Until per-client keys exist it accepts
 * the key in `VERSIONARY_ADMIN_KEY`, as `Authorization: Bearer <key>` or `X-API-Key: <key>`,
 * compared in constant time. Without that variable the management API refuses everyone.
 *
 * @example
 * ```ts
 * app.addHook('onRequest', createAdminCheck({ adminKey: config.adminKey }));
 * ```
 */
export function createAdminCheck(options: { adminKey: string | undefined }): (request: FastifyRequest) => Promise<void> {
  const expected = options.adminKey ? digest(options.adminKey) : undefined;
  const challenge = { 'www-authenticate': 'Bearer realm="versionary-admin"' };
  return async (request) => {
    const presented = keyOf(request);
    if (!presented) throw new VersionaryError({ code: ErrorCode.Unauthenticated, detail: 'The management API needs an admin key: Authorization: Bearer <key>.', headers: challenge });
    if (!expected || !timingSafeEqual(digest(presented), expected)) {
      throw new VersionaryError({ code: ErrorCode.Unauthenticated, detail: 'The key is not valid for the management API.', headers: challenge });
    }
  };
}

function keyOf(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+([\x21-\x7e]{1,512})$/i.exec(auth.trim());
    return match?.[1];
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.length <= 512 ? header : undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
