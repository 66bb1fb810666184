import { buildChangelog, lastDays, type Changelog } from '../../../core/portal/index.ts';
import { toChangelogEndpoint } from '../changelog-routes.ts';
import { describeVersions, toChangelogVersions } from '../../lifecycle/version-info.ts';
import { lookbackDays } from './consumer-data.ts';
import type { DashboardOptions } from './options.ts';

import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { sendAtomFeed } from '../feeds.ts';
import type { DashboardKit } from './dashboard-kit.ts';

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
    return sendAtomFeed(reply.headers({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' }), {
      changelog,
      id: `tag:versionary.dev,2025:changelog:${encodeURIComponent(record.id)}`,
      title: `${options.title} changelog: what you call`,
      selfUrl: `/portal/feed/${token}`,
      pageUrl: '/docs/changelog',
      fallbackUpdated: options.clock.now(),
    });
  });
}

/** A client's own changelog: the versions and endpoints it called, and its replacements' releases. */
async function personalChangelog(options: DashboardOptions, clientId: string): Promise<Changelog> {
  const now = options.clock.now();
  await options.flushUsage();
  const rows = await options.storage.usage.byClient({ since: lastDays(now, lookbackDays).from, clientId });
  const calledVersions = new Set(rows.map((r) => r.version));
  const calledEndpoints = new Set(rows.map((r) => `${r.version} ${r.endpoint}`));
  const versions = describeVersions(options);
  const wholeVersion = (name: string) =>
    calledVersions.has(name) && versions.find((v) => v.name === name)?.status !== 'not_deprecated';
  const replacements = new Set(
    versions.filter((v) => wholeVersion(v.name) && v.replacement).map((v) => v.replacement!),
  );
  const endpoints = options.runtime
    .endpointDeprecations()
    .filter((e) => calledEndpoints.has(`${e.version} ${e.method} ${e.path}`))
    .map((e) => toChangelogEndpoint(e));
  const full = buildChangelog({
    versions: toChangelogVersions(
      versions.filter((v) => wholeVersion(v.name) || replacements.has(v.name)),
      options.bundle,
    ),
    endpoints,
    now,
  });
  // A replacement's own lifecycle is not this client's business: only its release.
  const entries = full.entries.filter(
    (e) =>
      e.endpoint !== undefined || wholeVersion(e.version) || (replacements.has(e.version) && e.kind === 'released'),
  );
  const upcoming = full.upcoming.filter((u) => u.endpoint !== undefined || wholeVersion(u.version));
  return { entries, upcoming };
}
