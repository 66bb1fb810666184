import type { FastifyInstance } from 'fastify';
import {
  buildChangelog,
  toBrownoutEntries,
  toClosingEntries,
  type Changelog,
  type ChangelogEntry,
} from '../../core/portal/index.ts';
import { replacementName } from '../../core/lifecycle/index.ts';
import { anchorOf, sendAtomFeed, toJsonFeed } from './feeds.ts';
import type { EndpointDeprecation } from '../../kernel/ports/index.ts';
import { dayTime, html, safeHref, sendPage, Table } from './html.ts';
import { Layout } from './layout.ts';
import { describeVersions, toChangelogVersions } from '../lifecycle/version-info.ts';
import type { DashboardOptions } from './dashboard/options.ts';

const feedId = 'tag:versionary.dev,2025:changelog';

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
      pageUrl: '/docs/changelog',
      fallbackUpdated: options.clock.now(),
    }),
  );
  app.get('/changelog.json', async (_request, reply) =>
    reply.type('application/feed+json; charset=utf-8').send(
      toJsonFeed({
        changelog: changelog(),
        title,
        feedUrl: '/changelog.json',
        pageUrl: '/docs/changelog',
        idPrefix: feedId,
      }),
    ),
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
export function toChangelogEndpoint(e: EndpointDeprecation, versionGuide?: string) {
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
