import type { Changelog, ChangelogEntry } from '../../core/portal/index.ts';

/** An entry's summary, then its changes as a list. */
export const entryText = (e: ChangelogEntry): string =>
  e.changes.length > 0 ? `${e.summary}\n\n${e.changes.map((c) => `- ${c}`).join('\n')}` : e.summary;

/** An instant in the RFC 3339 form feeds use. */
export function isoInstant(at: number): string {
  return new Date(at).toISOString().replace(/\.000Z$/, 'Z');
}

/** The changelog as a JSON Feed 1.1, the lifecycle facts in the `_versionary` extensions. */
export function toJsonFeed(options: {
  changelog: Changelog;
  title: string;
  feedUrl: string;
  pageUrl: string;
  idPrefix: string;
}): Record<string, unknown> {
  const { changelog } = options;
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: options.title,
    home_page_url: options.pageUrl,
    feed_url: options.feedUrl,
    language: 'en',
    items: changelog.entries.map((e) => ({
      id: `${options.idPrefix}:${encodeURIComponent(e.id)}`,
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
