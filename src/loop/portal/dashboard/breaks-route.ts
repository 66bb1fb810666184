import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { html } from '../html.ts';
import { prefersHtml } from '../prefers-html.ts';
import { describeVersions } from '../../lifecycle/version-info.ts';
import { gatherBreaks } from '../../lifecycle/breaks/breaks-data.ts';
import { BreaksView } from './breaks-view.ts';
import type { DashboardKit } from './dashboard-kit.ts';

/** What breaks for me: a consumer sees its own client only; the owner names one with `?client=`. */
export function registerBreaksRoute(portal: FastifyInstance, kit: DashboardKit): void {
  const { options, page } = kit;
  portal.get(
    '/breaks',
    kit.signedIn(async (request, reply, session) => {
      const text = queryText(request.query as Record<string, unknown>);
      const owner = session.role === 'admin';
      // The consumer's own client, or the one the owner named (if any).
      const clientId = owner ? text('client') : (text('client') ?? session.clientId);
      if (clientId !== undefined) await kit.assertClient(session, clientId);
      const versions = describeVersions(options).map((v) => v.name);
      const title = 'What breaks for me';
      const mine = owner ? { client: clientId } : {};
      const view = (props: Record<string, unknown>) =>
        html`<${BreaksView} versions=${versions} ...${mine} ...${props} />`;
      if (clientId === undefined) return page(reply, { title, body: view({ client: '' }), session });
      try {
        const [from, to] = [text('from'), text('to')];
        const data = await gatherBreaks(options, { clientId, ...(from ? { from } : {}), ...(to ? { to } : {}) });
        // Says whether the pair's diff was reused or computed for this page, and what that cost (W3C
        // Server Timing): `diff;desc="reused";dur=0.0`.
        const { reused, ms } = data.diff;
        reply.header('server-timing', `diff;desc="${reused ? 'reused' : 'computed'}";dur=${ms.toFixed(1)}`);
        return page(reply, { title, body: view({ data }), session });
      } catch (error) {
        // A browser gets the page back with the problem's detail beside the form; a program, the problem.
        if (
          !(error instanceof VersionaryError) ||
          error.code !== ErrorCode.ValidationFailed ||
          !prefersHtml(request.headers.accept)
        )
          throw error;
        return page(reply.code(400), { title, body: view({ error: error.detail }), session });
      }
    }),
  );
}

/** A query parameter given once, as a version or client name, or `undefined` when absent or empty. */
function queryText(query: Record<string, unknown>): (name: string) => string | undefined {
  return (name) => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 200)
      throw new VersionaryError({
        code: ErrorCode.ValidationFailed,
        detail: `"${name}" must be given once, as a version name.`,
      });
    return value;
  };
}
