import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';

/**
 * Whether a form's `Origin` is the portal's own: the configured `publicUrl`'s origin, or the
 * origin the request itself was sent to. Behind a TLS-terminating proxy the socket is plain http,
 * so the second is `http://…` while the browser says `https://…`: the first answers for it. The
 * second reads `X-Forwarded-Proto` and `X-Forwarded-Host` only through Fastify's `trustProxy`,
 * that is from a proxy the app trusts; a header from anyone else changes nothing.
 */
function isPortalOrigin(options: { origin: string; request: FastifyRequest; publicUrl: string | undefined }): boolean {
  const { origin, request } = options;
  if (origin === `${request.protocol}://${request.host}`) return true;
  return options.publicUrl !== undefined && origin === originOf(options.publicUrl);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Refuse (403) a form posted from any origin but the portal's own; a request without `Origin` passes. */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const origin = request.headers.origin;
  if (origin !== undefined && !isPortalOrigin({ origin, request, publicUrl })) {
    throw new VersionaryError({
      code: ErrorCode.Forbidden,
      detail: 'Portal forms are accepted only from the portal itself.',
    });
  }
}
