import { createHash, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { verifyApiKey } from '../../access/auth/api-keys.ts';
import { html, sendPage } from '../html.ts';
import { Layout } from '../layout.ts';
import { gatherAdminData } from './admin-data.ts';
import { AdminView } from './admin-view.ts';
import { gatherConsumerData } from './consumer-data.ts';
import { ConsumerView } from './consumer-view.ts';
import type { DashboardOptions } from './options.ts';
import { principalOf } from '../../access/auth/principal.ts';
import { cookieName, createSessionCodec, sessionSeconds, type PortalSession } from './session.ts';
import { SignInPage } from './sign-in-page.ts';
import { isPortalOrigin } from './same-origin.ts';
import { toAtomFeed } from '../atom-feed.ts';
import { personalChangelog } from './personal-feed.ts';
import { gatherBreaks } from './breaks-data.ts';
import { BreaksView } from './breaks-view.ts';
import { prefersHtml } from '../prefers-html.ts';
import { describeVersions } from '../version-info.ts';
import { createDiffCache } from './diff-cache.ts';

/**
 * The dashboard under `/portal`: sign-in with an API key or the admin key, a signed short-lived
 * cookie, CSRF-checked forms, and the consumer or admin view by role.
 */
export async function registerDashboard(portal: FastifyInstance, given: DashboardOptions): Promise<void> {
  // One diff per pair of versions and lifecycle generation, shared by every client's pages.
  const options: DashboardOptions = {
    ...given,
    diffs: given.diffs ?? createDiffCache({ clock: given.clock, generation: () => given.runtime.generation() }),
  };
  await portal.register(cookie);
  await portal.register(formbody, { bodyLimit: 4096 });
  const codec =
    options.sessions ??
    createSessionCodec({ clock: options.clock, ...(options.secret ? { secret: options.secret } : {}) });
  const admin = options.adminKey ? createHash('sha256').update(options.adminKey).digest() : undefined;

  /**
   * The session of the cookie, if still good: signature and expiry, and the key not revoked since.
   * Without one, the app's own authentication (`identify`) signs the caller in for this request.
   */
  const sessionOf = async (request: FastifyRequest): Promise<PortalSession | undefined> => {
    const session = await codec.read(request.cookies[cookieName]);
    if (!session) return appSessionOf(request);
    if (session.keyId === 'admin') return admin ? session : undefined;
    const record = await options.storage.apiKeys.find(session.keyId);
    return record && record.revokedAt === null ? session : undefined;
  };
  const toSignIn = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-store')
      .clearCookie(cookieName, { path: '/portal' })
      .redirect('/portal/sign-in', 303);
  const page = (
    reply: FastifyReply,
    { title, body, session }: { title: string; body: unknown; session?: PortalSession },
  ) =>
    sendPage(
      reply.header('cache-control', 'no-store'),
      html`<${Layout} title=${title} site=${options.title}>
      ${
        session &&
        html`<form method="post" action="/portal/sign-out" class="sign-out">
          <input type="hidden" name="_csrf" value=${codec.csrfToken(session)} />
          <p class="muted">
            Signed in as ${session.role === 'admin' ? 'the API owner' : 'a consumer'} ·
            <button type="submit" class="secondary">Sign out</button>
          </p>
        </form>`
      }
      ${body}
    </${Layout}>`,
    );
  const assertSameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isPortalOrigin({ origin, request, publicUrl: options.publicUrl })) {
      throw new VersionaryError({
        code: ErrorCode.Forbidden,
        detail: 'Portal forms are accepted only from the portal itself.',
      });
    }
  };

  portal.get('/sign-in', async (_request, reply) => page(reply, { title: 'Sign in', body: html`<${SignInPage} />` }));
  portal.post('/sign-in', async (request, reply) => {
    assertSameOrigin(request);
    const key = (request.body as { key?: unknown } | undefined)?.key;
    const session =
      typeof key === 'string' && key.length > 0 && key.length <= 512 ? await signIn(key.trim()) : undefined;
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
    assertSameOrigin(request);
    const session = await sessionOf(request);
    if (session && !codec.checkCsrf(session, (request.body as { _csrf?: unknown } | undefined)?._csrf)) {
      throw new VersionaryError({
        code: ErrorCode.Forbidden,
        detail: "The form's CSRF token is missing or wrong: reload the page and try again.",
      });
    }
    return toSignIn(reply);
  });
  portal.get('/', async (request, reply) => {
    const session = await sessionOf(request);
    if (!session) return toSignIn(reply);
    if (session.role === 'admin')
      return page(reply, {
        title: 'Dashboard',
        body: html`<${AdminView} data=${await gatherAdminData(options)} now=${options.clock.now()} />`,
        session,
      });
    const feedUrl = `/portal/feed/${codec.feedToken(session.keyId)}`;
    return page(reply, {
      title: 'Your usage',
      body: html`<${ConsumerView} data=${await gatherConsumerData(options, session.clientId)} feedUrl=${feedUrl} />`,
      session,
    });
  });
  portal.get('/clients/:id', async (request, reply) => {
    const session = await sessionOf(request);
    if (!session) return toSignIn(reply);
    const id = (request.params as { id: string }).id;
    // A consumer sees its own client only; any other id is "not found", so ids cannot be probed.
    const allowed =
      session.role === 'admin' ? (await options.storage.clients.find(id)) !== undefined : id === session.clientId;
    if (!allowed) throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'No such client.' });
    const data = await gatherConsumerData(options, id);
    return page(reply, {
      title: 'Client usage',
      body: html`<${ConsumerView}
        data=${data}
        heading=${session.role === 'admin' ? 'Client usage' : 'Your API usage'}
        client=${session.role === 'admin' ? id : undefined}
      />`,
      session,
    });
  });

  // What breaks for me: a consumer sees its own client only; the owner names one with `?client=`.
  portal.get('/breaks', async (request, reply) => {
    const session = await sessionOf(request);
    if (!session) return toSignIn(reply);
    const query = request.query as Record<string, unknown>;
    const text = (name: string) => {
      const value = query[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || value.length > 200)
        throw new VersionaryError({
          code: ErrorCode.ValidationFailed,
          detail: `"${name}" must be given once, as a version name.`,
        });
      return value;
    };
    const owner = session.role === 'admin';
    const clientId = owner ? text('client') : session.clientId;
    const asked = text('client');
    // Any other client is "not found" to a consumer, as on /portal/clients/:id, so ids cannot be probed.
    if (
      (!owner && asked !== undefined && asked !== session.clientId) ||
      (owner && clientId !== undefined && !(await options.storage.clients.find(clientId)))
    )
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'No such client.' });
    const versions = describeVersions(options).map((v) => v.name);
    const title = 'What breaks for me';
    const view = (props: Record<string, unknown>) => html`<${BreaksView} versions=${versions} ...${props} />`;
    if (clientId === undefined) return page(reply, { title, body: view({ client: '' }), session });
    try {
      const data = await gatherBreaks(options, { clientId, ...pair(text) });
      // Says whether the pair's diff was reused or computed for this page, and what that cost.
      reply.header('server-timing', serverTiming(data.diff));
      return page(reply, { title, body: view({ data, ...(owner ? { client: clientId } : {}) }), session });
    } catch (error) {
      // A browser gets the page back with the problem's detail beside the form; a program, the problem.
      if (
        !(error instanceof VersionaryError) ||
        error.code !== ErrorCode.ValidationFailed ||
        !prefersHtml(request.headers.accept)
      )
        throw error;
      return page(reply.code(400), {
        title,
        body: view({ error: error.detail, ...(owner ? { client: clientId } : {}) }),
        session,
      });
    }
  });

  /** Behind a TLS-terminating proxy the socket is plain http: its `X-Forwarded-Proto` only ever adds `Secure`, never removes it. */
  function isHttps(request: FastifyRequest): boolean {
    const forwarded = request.headers['x-forwarded-proto'];
    return (
      request.protocol === 'https' ||
      (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim().toLowerCase() === 'https')
    );
  }

  // The personal feed: read by feed readers, which carry no cookie, so the URL itself is the secret.
  portal.get('/feed/:token', async (request, reply) => {
    const token = (request.params as { token: string }).token;
    const keyId = codec.feedKeyOf(token);
    const record = keyId ? await options.storage.apiKeys.find(keyId) : undefined;
    if (!record || record.revokedAt !== null)
      throw new VersionaryError({
        code: ErrorCode.NotFound,
        detail: 'No such feed: the URL is wrong or its key was revoked.',
      });
    const clientId = record.clientId ?? record.id;
    const changelog = await personalChangelog(options, clientId);
    return reply
      .type('application/atom+xml; charset=utf-8')
      .headers({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' })
      .serializer(String)
      .send(
        toAtomFeed({
          changelog,
          id: `tag:versionary.dev,2025:changelog:${encodeURIComponent(record.id)}`,
          title: `${options.title} changelog: what you call`,
          selfUrl: `/portal/feed/${token}`,
          pageUrl: '/docs/changelog',
          fallbackUpdated: options.clock.now(),
        }),
      );
  });

  /** A session for the app's own identity: bound to the credential id, so its CSRF tokens hold across requests. */
  function appSessionOf(request: FastifyRequest): PortalSession | undefined {
    const principal = principalOf(request);
    if (principal?.kind !== 'app' || principal.clientId === undefined) return undefined;
    const role = principal.roles.has('admin') ? 'admin' : 'consumer';
    return {
      keyId: principal.id,
      role,
      clientId: principal.clientId,
      sessionId: `app:${principal.id}`,
      expiresAt: options.clock.now() + sessionSeconds * 1000,
    };
  }

  async function signIn(key: string): Promise<Omit<PortalSession, 'sessionId' | 'expiresAt'> | undefined> {
    if (admin && timingSafeEqual(createHash('sha256').update(key).digest(), admin))
      return { keyId: 'admin', role: 'admin', clientId: 'admin' };
    const principal = await verifyApiKey({ store: options.storage.apiKeys, key });
    if (!principal) return undefined;
    return {
      keyId: principal.id,
      role: principal.roles.has('admin') ? 'admin' : 'consumer',
      clientId: principal.clientId ?? principal.id,
    };
  }
}

/** The `Server-Timing` entry of the page's diff (W3C Server Timing): `diff;desc="reused";dur=0.0`. */
function serverTiming(diff: { reused: boolean; ms: number }): string {
  return `diff;desc="${diff.reused ? 'reused' : 'computed'}";dur=${diff.ms.toFixed(1)}`;
}

function pair(text: (name: string) => string | undefined): { from?: string; to?: string } {
  const from = text('from');
  const to = text('to');
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
