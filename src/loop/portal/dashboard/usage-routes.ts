import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { html } from '../html.ts';
import { gatherAdminData } from './admin-data.ts';
import { AdminView } from './admin-view.ts';
import { gatherConsumerData } from './consumer-data.ts';
import { ConsumerView } from './consumer-view.ts';
import type { DashboardKit } from './dashboard-kit.ts';

/** `/portal`, the owner's overview or a consumer's own usage by role, and `/portal/clients/:id`. */
export function registerUsageRoutes(portal: FastifyInstance, kit: DashboardKit): void {
  const { options, codec, sessions, page } = kit;
  portal.get('/', async (request, reply) => {
    const session = await sessions.sessionOf(request);
    if (!session) return kit.toSignIn(reply);
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
    const session = await sessions.sessionOf(request);
    if (!session) return kit.toSignIn(reply);
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
}
