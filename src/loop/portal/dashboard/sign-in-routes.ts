import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import type { DashboardKit } from './dashboard-kit.ts';
import { assertSameOrigin } from './dashboard-kit.ts';
import { cookieName, sessionSeconds } from './session.ts';
import type { VNode } from 'preact';

/** `/portal/sign-in` (the form and its post) and `/portal/sign-out`, both forms checked for origin. */
export function registerSignInRoutes(portal: FastifyInstance, kit: DashboardKit): void {
  const { options, codec, page } = kit;
  portal.get('/sign-in', async (_request, reply) => page(reply, { title: 'Sign in', body: html`<${SignInPage} />` }));
  portal.post('/sign-in', async (request, reply) => {
    assertSameOrigin(request, options.publicUrl);
    const key = (request.body as { key?: unknown } | undefined)?.key;
    const session =
      typeof key === 'string' && key.length > 0 && key.length <= 512 ? await kit.signIn(key.trim()) : undefined;
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
    await kit.formSession(request);
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

/** The key goes in a POST body, never a URL, in a password field the form history does not keep. */
function SignInPage(props: { error?: string }): VNode {
  return html`<div>
    <h1>Sign in to the portal</h1>
    <p>
      Consumers sign in with their API key and see the deprecations that affect them; the API owner signs in with an
      admin key.
    </p>
    ${props.error && html`<p class="error" role="alert">${props.error}</p>`}
    <form method="post" action="/portal/sign-in">
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required maxlength="512" />
      <p><button type="submit">Sign in</button></p>
    </form>
    <p class="muted">
      The sign-in lasts 30 minutes. Nothing is stored on the server: the browser keeps a signed cookie.
    </p>
  </div>`;
}
