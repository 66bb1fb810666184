import { XMLBuilder } from 'fast-xml-parser';
import type { FastifyReply } from 'fastify';
import type { Changelog, ChangelogEntry } from '../../core/portal/index.ts';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  suppressEmptyNode: true,
});

/** Characters XML 1.0 cannot carry at all, even escaped: dropped rather than breaking the feed. */
const notXml = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const text = (value: string) => value.replace(notXml, '');

/** The changelog page, which the feeds' entries link into. */
const pageUrl = '/docs/changelog';

/** The changelog feeds' `tag:` URI; a personal feed's extends it. */
export const feedId = 'tag:versionary.dev,2025:changelog';

export interface AtomFeedOptions {
  changelog: Changelog;
  /** A `tag:` URI naming the feed; entries' ids extend it. */
  id: string;
  title: string;
  selfUrl: string;
  /** The feed's `updated` when it has no entry yet. */
  fallbackUpdated: number;
}

/**
 * Send the changelog as an Atom feed (RFC 4287), escaped by `fast-xml-parser`. Stable `tag:` ids and
 * the newest entry's date as `updated`, so a reader that polls sees each event once.
 */
export function sendAtomFeed(reply: FastifyReply, options: AtomFeedOptions): FastifyReply {
  const { entries } = options.changelog;
  const updated = entries.reduce((max, e) => Math.max(max, e.at), entries.length > 0 ? 0 : options.fallbackUpdated);
  const feed = builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'utf-8' },
    feed: {
      '@xmlns': 'http://www.w3.org/2005/Atom',
      id: options.id,
      title: text(options.title),
      updated: isoInstant(updated),
      author: { name: 'Versionary' },
      link: [
        { '@rel': 'self', '@type': 'application/atom+xml', '@href': options.selfUrl },
        { '@rel': 'alternate', '@type': 'text/html', '@href': pageUrl },
      ],
      generator: 'Versionary',
      entry: entries.map((e) => toAtomEntry(e, options)),
    },
  }) as string;
  return reply.type('application/atom+xml; charset=utf-8').serializer(String).send(feed);
}

function toAtomEntry(e: ChangelogEntry, options: AtomFeedOptions): Record<string, unknown> {
  const links: Array<Record<string, string>> = [
    { '@rel': 'alternate', '@type': 'text/html', '@href': `${pageUrl}#${anchorOf(e)}` },
  ];
  if (e.guideUrl)
    links.push({ '@rel': 'related', '@type': 'text/html', '@title': 'Migration guide', '@href': e.guideUrl });
  return {
    id: `${options.id}:${encodeURIComponent(e.id)}`,
    title: { '@type': 'text', '#text': text(e.title) },
    updated: isoInstant(e.at),
    published: isoInstant(e.at),
    category: [{ '@term': e.kind }, { '@term': e.version, '@label': `version ${e.version}` }],
    link: links,
    summary: { '@type': 'text', '#text': text(e.summary) },
    content: { '@type': 'text', '#text': text(entryText(e)) },
  };
}

/** The fragment of an entry on the changelog page. */
export function anchorOf(entry: Pick<ChangelogEntry, 'id'>): string {
  return entry.id.replace(/[^A-Za-z0-9_-]+/g, '-');
}

/** An entry's summary, then its changes as a list. */
const entryText = (e: ChangelogEntry): string =>
  e.changes.length > 0 ? `${e.summary}\n\n${e.changes.map((c) => `- ${c}`).join('\n')}` : e.summary;

/** An instant in the RFC 3339 form feeds use. */
export function isoInstant(at: number): string {
  return new Date(at).toISOString().replace(/\.000Z$/, 'Z');
}

/** The changelog as a JSON Feed 1.1, the lifecycle facts in the `_versionary` extensions. */
export function toJsonFeed(changelog: Changelog, title: string): Record<string, unknown> {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title,
    home_page_url: pageUrl,
    feed_url: '/changelog.json',
    language: 'en',
    items: changelog.entries.map((e) => ({
      id: `${feedId}:${encodeURIComponent(e.id)}`,
      title: e.title,
      content_text: entryText(e),
      summary: e.summary,
      date_published: isoInstant(e.at),
      tags: [e.kind, e.version],
      ...(e.guideUrl ? { external_url: e.guideUrl } : {}),
      _versionary: {
        kind: e.kind,
        version: e.version,
        endpoint: e.endpoint ?? null,
        // Only on an element's entry, so the other items read as they always have.
        ...(e.element ? { element: e.element } : {}),
        changes: e.changes,
        guideUrl: e.guideUrl ?? null,
      },
    })),
    _versionary: {
      upcoming: changelog.upcoming.map((u) => ({
        version: u.version,
        endpoint: u.endpoint ?? null,
        sunsetAt: isoInstant(u.sunsetAt),
        replacement: u.replacement ?? null,
        guideUrl: u.guideUrl ?? null,
      })),
    },
  };
}
