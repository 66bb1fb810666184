import type { FastifyInstance, FastifyReply } from 'fastify';
import { html } from '../html.ts';
import { gatherAdminData } from './admin-data.ts';
import { AdminView } from './admin-view.ts';
import { gatherConsumerData } from './consumer-data.ts';
import { ConsumerView } from './consumer-view.ts';
import type { DashboardKit } from './dashboard-kit.ts';
import type { ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import { gatherExtendedAccess, registerPortalExtendedAccessRoutes } from './extended-access-routes.ts';
import { subjectCap } from '../../lifecycle/extended-access/check-grant.ts';
import { ConsumerExtendedAccess, OwnerExtendedAccess } from './extended-access-view.ts';
import type { PortalSession } from './session.ts';

/** `/portal`, the owner's overview or a consumer's own usage by role (with extended access), and `/portal/clients/:id`. */
export function registerUsageRoutes(portal: FastifyInstance, kit: DashboardKit): void {
  const { options, codec, page } = kit;
  // The dashboard by role; `error` is a refused extended-access form's problem, shown beside the forms.
  const dashboard = async (reply: FastifyReply, { session, error }: { session: PortalSession; error?: string }) => {
    if (session.role === 'admin') {
      // Every pending request and every grant in force.
      const [requests, extendedAccess] = await Promise.all([
        options.storage.extendedAccessRequests.list({ status: 'pending' }),
        options.storage.extendedAccess.list(),
      ]);
      return page(reply, {
        title: 'Dashboard',
        body: html`<${AdminView} data=${await gatherAdminData(options)} now=${options.clock.now()} />
          <${OwnerExtendedAccess}
            requests=${requests}
            extendedAccess=${extendedAccess}
            now=${options.clock.now()}
            csrf=${codec.csrfToken(session)}
            capOf=${(s: ExtendedAccessSubject) => subjectCap(options.runtime, s)}
            error=${error}
          />`,
        session,
      });
    }
    const feedUrl = `/portal/feed/${codec.feedToken(session.keyId)}`;
    const data = await gatherConsumerData(options, session.clientId);
    const extendedAccess = await gatherExtendedAccess(options, { clientId: session.clientId, warnings: data.warnings });
    return page(reply, {
      title: 'Your usage',
      body: html`<${ConsumerView} data=${data} feedUrl=${feedUrl} />
        <${ConsumerExtendedAccess} ...${extendedAccess} csrf=${codec.csrfToken(session)} error=${error} />`,
      session,
    });
  };
  portal.get(
    '/',
    kit.signedIn(async (_request, reply, session) => dashboard(reply, { session })),
  );
  registerPortalExtendedAccessRoutes(portal, kit, dashboard);
  portal.get(
    '/clients/:id',
    kit.signedIn(async (request, reply, session) => {
      const id = (request.params as { id: string }).id;
      await kit.assertClient(session, id);
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
    }),
  );
}
