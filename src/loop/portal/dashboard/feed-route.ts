import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { toAtomFeed } from '../atom-feed.ts';
import type { DashboardKit } from './dashboard-kit.ts';
import { personalChangelog } from './personal-feed.ts';

/** The personal feed: read by feed readers, which carry no cookie, so the URL itself is the secret. */
export function registerFeedRoute(portal: FastifyInstance, { options, codec }: DashboardKit): void {
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
}
