import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from 'htm/preact';
import { render } from 'preact-render-to-string';
import type { Clock } from '../../core/clock/index.ts';
import { queryIntegerSteps } from '../../http/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import { eventType, subjectParts } from '../../core/notices/index.ts';
import type { NoticeStore, OutboxNotice, Storage } from '../../kernel/ports/index.ts';
import { NoticeList, NoticeQuery, PassReportSchema, UnsubscribeQuery } from './schemas.ts';
import { adminRoute, responses } from '../host/admin-route-schemas.ts';
import { checkUnsubscribe, unsubscribeLinkDays, type UnsubscribeRefusal } from './unsubscribe-token.ts';
import type { NoticeWorker } from './worker.ts';

/** `POST /notices/run` and `GET /notices` of the management API (mounted under `/admin/v1`). */
export function registerNoticeAdminRoutes(
  app: FastifyInstance,
  options: { notices: NoticeStore; worker: NoticeWorker },
): void {
  app.post(
    '/notices/run',
    {
      schema: adminRoute({
        operationId: 'notices.run',
        summary: 'Run one notices pass now (after flushing buffered usage)',
        tags: ['notices'],
        description:
          'Plans the notices now due and delivers what is pending, as the scheduled pass does; answers what it did. An action, not a resource: its path ends in a verb (`x-lint-skip`).',
        'x-lint-skip': ['collection-not-plural'],
        response: { 200: PassReportSchema },
      }),
    },
    async () => options.worker.runPass(),
  );
  app.get(
    '/notices',
    {
      schema: adminRoute({
        operationId: 'notices.list',
        summary: 'List planned notices and their delivery state',
        tags: ['notices'],
        querystring: NoticeQuery,
        description: 'The outbox: one row per notice, channel and recipient, oldest first, a page at a time.',
        response: { 200: NoticeList, 400: 'An invalid query parameter' },
      }),
      // limit is validated as the integer the document publishes, from its canonical decimal text only.
      config: queryIntegerSteps(NoticeQuery as unknown as Record<string, unknown>),
    },
    async (request) => {
      const q = request.query as Static<typeof NoticeQuery>;
      const page = await options.notices.list({
        clientId: q.client,
        status: q.status,
        kind: q.kind,
        limit: q.limit ?? 100,
        afterId: q.after === undefined ? 0 : Number(q.after),
      });
      const channels = new Set(options.worker.channels());
      return {
        data: page.items.map((n) => toItem(n, channels.has(n.channel))),
        nextAfter: page.nextAfter === null ? null : String(page.nextAfter),
      };
    },
  );
}

function toItem(n: OutboxNotice, hasTransport: boolean) {
  const waiting = !hasTransport && (n.status === 'pending' || n.status === 'retrying');
  return {
    id: n.id,
    client: n.clientId,
    subject: n.subject,
    kind: n.kind,
    step: n.step,
    type: eventType({ kind: n.kind, ...subjectParts(n.subject) }),
    sunsetAt: formatIsoInstant(n.sunsetAt),
    channel: n.channel,
    recipient: n.recipient,
    status: n.status,
    waitingFor: waiting ? (n.channel === 'email' ? ('mail-transport' as const) : ('transport' as const)) : null,
    attempts: n.attempts,
    lastError: n.lastError,
    nextAttemptAt: formatIsoInstant(n.nextAttemptAt),
    createdAt: formatIsoInstant(n.createdAt),
    updatedAt: formatIsoInstant(n.updatedAt),
    sentAt: n.sentAt === null ? null : formatIsoInstant(n.sentAt),
  };
}

/**
 * The one-click unsubscribe route (RFC 8058): `POST` unsubscribes; `GET` shows a confirmation
 * button, since link scanners fetch URLs too.
 */
export function registerUnsubscribeRoutes(
  app: FastifyInstance,
  options: {
    storage: Pick<Storage, 'clients' | 'notices'>;
    secret: string;
    clock: Clock;
  },
): void {
  const { clients, notices } = options.storage;
  /** The link's query, once its signature, age and freshness are checked. */
  const check = async (request: FastifyRequest) => {
    const q = request.query as Static<typeof UnsubscribeQuery>;
    const client = await clients.find(q.client);
    const refusal = checkUnsubscribe({
      secret: options.secret,
      clientId: q.client,
      email: q.contact,
      token: q.token,
      now: options.clock.now(),
      changedAt: client?.updatedAt,
    });
    if (refusal) throw new VersionaryError({ code: ErrorCode.Forbidden, detail: refusals[refusal] });
    return q;
  };
  const schema = {
    summary: 'Unsubscribe a contact from deprecation notices',
    tags: ['notices'],
    querystring: UnsubscribeQuery,
  };
  void app.register(async (scope) => {
    // Mail clients POST `List-Unsubscribe=One-Click` as a form (RFC 8058); the body carries nothing else.
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/notices/unsubscribe',
      {
        schema: {
          ...schema,
          summary: 'Unsubscribe a contact from deprecation notices (one click)',
          response: responses({
            200: { type: 'object', properties: { unsubscribed: { type: 'boolean' }, contact: { type: 'string' } } },
            ...linkProblems,
            404: 'The contact is no longer on the client',
          }),
        },
      },
      async (request) => {
        const q = await check(request);
        const email = q.contact.toLowerCase();
        if (!(await clients.setContactSubscribed(q.client, email, false)))
          throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'This contact is no longer on the client.' });
        await notices.unsubscribe({ clientId: q.client, recipient: email, at: options.clock.now() });
        return { unsubscribed: true, contact: email };
      },
    );
  });
  app.get(
    '/notices/unsubscribe',
    { schema: { ...schema, response: responses(linkProblems) } },
    async (request, reply) => {
      const q = await check(request);
      const page = html`<html>
        <body>
          <h1>Unsubscribe ${q.contact}</h1>
          <p>Stop deprecation notices to this address?</p>
          <form method="post" action=${request.url}><button type="submit">Unsubscribe</button></form>
        </body>
      </html>`;
      return reply.type('text/html; charset=utf-8').send(`<!doctype html>${render(page as never)}`);
    },
  );
}

const linkProblems = {
  400: 'An invalid query',
  403: "The link's signature does not match, or it expired or predates the last change",
};

const refusals: Record<UnsubscribeRefusal, string> = {
  forged: 'This unsubscribe link is not valid: its signature does not match the contact.',
  expired: `This unsubscribe link has expired (links work for ${unsubscribeLinkDays} days): use the link in a newer notice.`,
  superseded:
    "This unsubscribe link is older than the latest change to this contact's subscription: use the link in a newer notice.",
};
