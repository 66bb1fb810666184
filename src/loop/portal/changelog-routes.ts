import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import {
  buildChangelog,
  lastDays,
  toBrownoutEntries,
  toClosingEntries,
  type Changelog,
  type ChangelogEntry,
} from '../../core/portal/index.ts';
import { replacementName } from '../../core/lifecycle/index.ts';
import { anchorOf, feedId, sendAtomFeed, toJsonFeed } from './feeds.ts';
import type { EndpointDeprecation } from '../../kernel/ports/index.ts';
import { dayTime, html, safeHref, sendPage, Table } from './html.ts';
import { Layout } from './layout.ts';
import { describeVersions, toChangelogVersions } from '../lifecycle/version-info.ts';
import { lookbackDays } from './dashboard/consumer-data.ts';
import type { DashboardKit } from './dashboard/dashboard-kit.ts';
import type { DashboardOptions } from './dashboard/options.ts';

type ChangelogElement = NonNullable<Parameters<typeof buildChangelog>[0]['elements']>[number];
type ChangelogClosing = Parameters<typeof toClosingEntries>[0][number];
type Dated = { closedToNewClientsAt?: number | undefined; extendedAccessUntil?: number | undefined };

const kindLabel: Record<string, string> = {
  released: 'Release',
  deprecated: 'Deprecation',
  endpoint_deprecated: 'Endpoint deprecation',
  element_deprecated: 'Field or parameter deprecation',
  closed_to_new_clients: 'Closed to new clients',
  reminder: 'Reminder',
  brownout: 'Brownout',
  removed: 'Removal',
};

/** The changelog as HTML, Atom and JSON Feed, built per request so a new deprecation shows at once. */
export function registerChangelogRoutes(app: FastifyInstance, options: DashboardOptions): void {
  const title = `${options.title} changelog`;
  const changelog = (): Changelog => {
    const versions = describeVersions(options);
    const deprecations = options.runtime.endpointDeprecations();
    // An endpoint's or element's own migration notes when safe, else its version's guide.
    const endpoints = versions.flatMap((v) =>
      deprecations.filter((e) => e.version === v.name).map((e) => toChangelogEndpoint(e, v.guideUrl)),
    );
    const elements = versions.flatMap((v) =>
      v.elements.map((e): ChangelogElement => {
        const guideUrl = safeHref(e.migrationUrl) ?? v.guideUrl;
        return guideUrl ? { ...e, guideUrl } : e;
      }),
    );
    // Every version, endpoint and element with a closing date, each with its cap and guide.
    const closing = (d: Dated, c: Omit<ChangelogClosing, 'closedToNewClientsAt'>): ChangelogClosing[] =>
      d.closedToNewClientsAt === undefined
        ? []
        : [{ ...c, closedToNewClientsAt: d.closedToNewClientsAt, extendedAccessUntil: d.extendedAccessUntil }];
    const closings = toClosingEntries([
      ...versions.flatMap((v) => closing(v, { version: v.name, replacement: v.replacement, guideUrl: v.guideUrl })),
      ...deprecations.flatMap((e) =>
        closing(e, {
          version: e.version,
          endpoint: `${e.method} ${e.path}`,
          guideUrl: safeHref(e.migrationUrl) ?? versions.find((v) => v.name === e.version)?.guideUrl,
        }),
      ),
      ...elements.flatMap((e) =>
        closing(e, { version: e.version, element: e.element, replacement: replacementName(e), guideUrl: e.guideUrl }),
      ),
    ]);
    const now = options.clock.now();
    return buildChangelog({
      versions: toChangelogVersions(versions, options.bundle),
      endpoints,
      elements,
      extra: [...toBrownoutEntries(options.brownouts(), now), ...closings],
      now,
    });
  };
  app.get('/changelog.atom', async (_request, reply) =>
    sendAtomFeed(reply, {
      changelog: changelog(),
      id: feedId,
      title,
      selfUrl: '/changelog.atom',
      fallbackUpdated: options.clock.now(),
    }),
  );
  app.get('/changelog.json', async (_request, reply) =>
    reply.type('application/feed+json; charset=utf-8').send(toJsonFeed(changelog(), title)),
  );
  app.get('/docs/changelog', async (_request, reply) => {
    const { entries, upcoming } = changelog();
    return sendPage(
      reply,
      html`<${Layout} title="Changelog" site=${options.title}>
      <h1>Changelog</h1>
      <p>Releases, deprecations, reminders and removals of every API version. Follow it as a feed: <a href="/changelog.atom">Atom</a> or <a href="/changelog.json">JSON Feed</a>.</p>
      ${
        upcoming.length > 0 &&
        html`<section aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">Coming removals</h2>
          <${Table}
            bare
            head=${['What', 'Removed on', 'Instead', 'Guide']}
            rows=${upcoming.map(
              (u) =>
                html`<tr>
                  <td>${u.endpoint ? html`<code>${u.endpoint}</code> in ${u.version}` : u.version}</td>
                  <td>${dayTime(u.sunsetAt)}</td>
                  <td>${u.replacement ? html`<a href=${`/docs/${u.replacement}`}>${u.replacement}</a>` : '—'}</td>
                  <td>
                    ${u.guideUrl ? html`<a href=${u.guideUrl}>Migration guide<span class="skip"> for ${u.version}</span></a>` : '—'}
                  </td>
                </tr>`,
            )}
          />
        </section>`
      }
      <h2>History</h2>
      <ol class="entries" reversed>${entries.map((e) => html`<${Entry} entry=${e} />`)}</ol>
    </${Layout}>`,
    );
  });
}

function Entry(props: { entry: ChangelogEntry }) {
  const e = props.entry;
  return html`<li class="entry" id=${anchorOf(e)} data-kind=${e.kind}>
    <h3>${e.title}</h3>
    <p class="muted">
      ${dayTime(e.at)} · ${kindLabel[e.kind] ?? e.kind} ·
      <a href=${`/docs/${e.version}`}>${e.version} reference</a>
    </p>
    <p>${e.summary}</p>
    ${
      e.changes.length > 0 &&
      html`<ul>
        ${e.changes.map((c) => html`<li>${c}</li>`)}
      </ul>`
    }
    ${e.guideUrl && html`<p><a href=${e.guideUrl}>Migration guide for ${e.version}</a></p>`}
  </li>`;
}

/** An endpoint deprecation as a changelog shows it; its own migration URL when safe, else `versionGuide`. */
function toChangelogEndpoint(e: EndpointDeprecation, versionGuide?: string) {
  const guideUrl = safeHref(e.migrationUrl) ?? versionGuide;
  return {
    version: e.version,
    method: e.method,
    path: e.path,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    ...(guideUrl ? { guideUrl } : {}),
  };
}

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
      id: `${feedId}:${encodeURIComponent(record.id)}`,
      title: `${options.title} changelog: what you call`,
      selfUrl: `/portal/feed/${token}`,
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
