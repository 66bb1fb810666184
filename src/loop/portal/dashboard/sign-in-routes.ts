import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { html } from '../html.ts';
import type { DashboardKit } from './dashboard-kit.ts';
import { assertSameOrigin } from './same-origin.ts';
import { cookieName, sessionSeconds } from './session.ts';
import { SignInPage } from './sign-in-page.ts';

/** `/portal/sign-in` (the form and its post) and `/portal/sign-out`, both forms checked for origin. */
export function registerSignInRoutes(portal: FastifyInstance, kit: DashboardKit): void {
  const { options, codec, sessions, page } = kit;
  portal.get('/sign-in', async (_request, reply) => page(reply, { title: 'Sign in', body: html`<${SignInPage} />` }));
  portal.post('/sign-in', async (request, reply) => {
    assertSameOrigin(request, options.publicUrl);
    const key = (request.body as { key?: unknown } | undefined)?.key;
    const session =
      typeof key === 'string' && key.length > 0 && key.length <= 512 ? await sessions.signIn(key.trim()) : undefined;
    if (!session)
      return page(reply.code(401), {
        title: 'Sign in',
        body: html`<${SignInPage} error="That key is not valid: unknown, revoked or mistyped." />`,
      });
    const { token } = await codec.issue(session);
    return reply
      .setCookie(cookieName, token, {
        path: '/portal',
        httpOnly: true,
        sameSite: 'strict',
        secure: isHttps(request),
        maxAge: sessionSeconds,
      })
      .header('cache-control', 'no-store')
      .redirect('/portal', 303);
  });
  portal.post('/sign-out', async (request, reply) => {
    assertSameOrigin(request, options.publicUrl);
    const session = await sessions.sessionOf(request);
    if (session && !codec.checkCsrf(session, (request.body as { _csrf?: unknown } | undefined)?._csrf)) {
      throw new VersionaryError({
        code: ErrorCode.Forbidden,
        detail: "The form's CSRF token is missing or wrong: reload the page and try again.",
      });
    }
    return kit.toSignIn(reply);
  });
}

/** Behind a TLS-terminating proxy the socket is plain http: its `X-Forwarded-Proto` only ever adds `Secure`, never removes it. */
function isHttps(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  return (
    request.protocol === 'https' ||
    (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim().toLowerCase() === 'https')
  );
}
