import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { principalOf } from '../../../kernel/ports/principal.ts';
import { verifyApiKey } from '../../access/auth/api-keys.ts';
import { html, sendPage } from '../html.ts';
import { Layout } from '../layout.ts';
import type { DashboardOptions } from './options.ts';
import { cookieName, sessionSeconds, type PortalSession } from './session.ts';

type SignedInHandler = (request: FastifyRequest, reply: FastifyReply, session: PortalSession) => Promise<unknown>;

/** What every dashboard route shares: the options, the cookie codec, who is signed in, and the page frame. */
export type DashboardKit = ReturnType<typeof createDashboardKit>;

export function createDashboardKit(options: DashboardOptions) {
  const codec = options.sessions;
  const admin = options.adminKey ? createHash('sha256').update(options.adminKey).digest() : undefined;
  const roleOf = (roles: ReadonlySet<string>) => (roles.has('admin') ? 'admin' : 'consumer');
  /** Send the caller to the sign-in page, dropping whatever cookie it had. */
  const toSignIn = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-store')
      .clearCookie(cookieName, { path: '/portal' })
      .redirect('/portal/sign-in', 303);
  /**
   * The session of the cookie, if still good: signature and expiry, and the key not revoked since.
   * Without one, the app's own authentication (`identify`) signs the caller in for this request.
   */
  const sessionOf = async (request: FastifyRequest): Promise<PortalSession | undefined> => {
    const session = await codec.read(request.cookies[cookieName]);
    if (session?.keyId === 'admin') return admin ? session : undefined;
    if (session) {
      const record = await options.storage.apiKeys.find(session.keyId);
      return record && record.revokedAt === null ? session : undefined;
    }
    // The app's identity: bound to the credential id, so its CSRF tokens hold across requests.
    const principal = principalOf(request);
    if (principal?.kind !== 'app' || principal.clientId === undefined) return undefined;
    const { id, clientId } = principal;
    const expiresAt = options.clock.now() + sessionSeconds * 1000;
    return { keyId: id, role: roleOf(principal.roles), clientId, sessionId: `app:${id}`, expiresAt };
  };
  return {
    options,
    codec,
    sessionOf,
    toSignIn,
    /** The session a key signs in as (the admin key, or a stored API key), or `undefined` for a bad key. */
    async signIn(key: string): Promise<Omit<PortalSession, 'sessionId' | 'expiresAt'> | undefined> {
      if (admin && timingSafeEqual(createHash('sha256').update(key).digest(), admin))
        return { keyId: 'admin', role: 'admin', clientId: 'admin' };
      const principal = await verifyApiKey({ store: options.storage.apiKeys, key });
      if (!principal) return undefined;
      return { keyId: principal.id, role: roleOf(principal.roles), clientId: principal.clientId ?? principal.id };
    },
    /** A page's handler for the signed-in only: anyone else is sent to the sign-in page. */
    signedIn: (handler: SignedInHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await sessionOf(request);
      return session ? handler(request, reply, session) : toSignIn(reply);
    },
    /** The session of a form post, checked for origin and, when signed in, for CSRF. */
    async formSession(request: FastifyRequest): Promise<PortalSession | undefined> {
      assertSameOrigin(request, options.publicUrl);
      const session = await sessionOf(request);
      if (session && !codec.checkCsrf(session, (request.body as { _csrf?: unknown } | undefined)?._csrf))
        throw new VersionaryError({
          code: ErrorCode.Forbidden,
          detail: "The form's CSRF token is missing or wrong: reload the page and try again.",
        });
      return session;
    },
    /** Refuse (404) a client the session may not see: a consumer sees its own only, the owner any stored one. */
    async assertClient(session: PortalSession, clientId: string): Promise<void> {
      // Any other client is "not found" to a consumer, so ids cannot be probed.
      const allowed =
        session.role === 'admin'
          ? (await options.storage.clients.find(clientId)) !== undefined
          : clientId === session.clientId;
      if (!allowed) throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'No such client.' });
    },
    /** Send a page in the portal's layout, never cached; signed in, with the sign-out form. */
    page: (reply: FastifyReply, { title, body, session }: { title: string; body: unknown; session?: PortalSession }) =>
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
  };
}

/**
 * Refuse (403) a form posted from any origin but the portal's own: the configured `publicUrl`'s (behind
 * a TLS-terminating proxy) or the request's, read from `X-Forwarded-*` only through Fastify's
 * `trustProxy`. A request without `Origin` passes.
 */
function assertSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === `${request.protocol}://${request.host}`) return;
  if (publicUrl !== undefined && URL.canParse(publicUrl) && origin === new URL(publicUrl).origin) return;
  throw new VersionaryError({
    code: ErrorCode.Forbidden,
    detail: 'Portal forms are accepted only from the portal itself.',
  });
}

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
    return reply
      .setCookie(cookieName, await codec.issue(session), {
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
