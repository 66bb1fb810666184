import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { html, sendPage } from '../html.ts';
import { Layout } from '../layout.ts';
import type { DashboardOptions } from './options.ts';
import type { PortalSessions } from './portal-sessions.ts';
import { cookieName, type PortalSession, type SessionCodec } from './session.ts';

/** What every dashboard route shares: the options, the cookie codec, the sessions and the page frame. */
export interface DashboardKit {
  options: DashboardOptions;
  codec: SessionCodec;
  sessions: PortalSessions;
  /** Send a page in the portal's layout, never cached; signed in, with the sign-out form. */
  page(reply: FastifyReply, content: { title: string; body: unknown; session?: PortalSession }): FastifyReply;
  /** Send the caller to the sign-in page, dropping whatever cookie it had. */
  toSignIn(reply: FastifyReply): FastifyReply;
  /** Refuse (403) a form post whose `_csrf` is not the session's. */
  assertCsrf(session: PortalSession, request: FastifyRequest): void;
}

export function createDashboardKit(
  options: DashboardOptions,
  { codec, sessions }: { codec: SessionCodec; sessions: PortalSessions },
): DashboardKit {
  return {
    options,
    codec,
    sessions,
    page: (reply, { title, body, session }) =>
      sendPage(
        reply.header('cache-control', 'no-store'),
        html`<${Layout} title=${title} site=${options.title}>
      ${
        session &&
        html`<form method="post" action="/portal/sign-out" class="sign-out">
          <input type="hidden" name="_csrf" value=${codec.csrfToken(session)} />
          <p class="muted">
            Signed in as ${session.role === 'admin' ? 'the API owner' : 'a consumer'} ·${' '}
            <button type="submit" class="secondary">Sign out</button>
          </p>
        </form>`
      }
      ${body}
    </${Layout}>`,
      ),
    toSignIn: (reply) =>
      reply
        .header('cache-control', 'no-store')
        .clearCookie(cookieName, { path: '/portal' })
        .redirect('/portal/sign-in', 303),
    assertCsrf: (session, request) => {
      if (!codec.checkCsrf(session, (request.body as { _csrf?: unknown } | undefined)?._csrf))
        throw new VersionaryError({
          code: ErrorCode.Forbidden,
          detail: "The form's CSRF token is missing or wrong: reload the page and try again.",
        });
    },
  };
}

/**
 * Whether a form's `Origin` is the configured `publicUrl`'s (behind a TLS-terminating proxy) or the
 * request's own, read from `X-Forwarded-*` only through Fastify's `trustProxy`.
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
