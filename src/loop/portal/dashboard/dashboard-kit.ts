import type { FastifyReply } from 'fastify';
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
}

/** The page frame and the sign-in redirect of the dashboard. */
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
  };
}
