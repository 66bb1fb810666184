import { formatSnippet } from './schema-snippet.ts';
import type { GuideEntry, MigrationGuide } from './types.ts';

/**
 * Render a guide as a complete, self-contained HTML page: inline CSS, no scripts, every text
 * escaped, Markdown code spans as `<code>`, a changed type's shape before and after.
 *
 * @example
 * ```ts
 * const page = toHtml(createMigrationGuide(options)); // '<!doctype html>...'
 * ```
 */
export function toHtml(guide: MigrationGuide): string {
  const { breaking, risk, compatible } = guide.summary;
  const notes =
    guide.notes.length === 0
      ? ''
      : `<h2>What changed</h2>\n<ul>${guide.notes.map((n) => `<li>${withCode(n)}</li>`).join('')}</ul>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(guide.title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #ccc;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}code{background:#f3f3f3;padding:0 .2rem}.breaking{color:#a40000}
pre{margin:.4rem 0 0;font-size:.85em;white-space:pre-wrap}pre code{padding:0;background:none}
</style>
</head>
<body>
<h1>${escapeHtml(guide.title)}</h1>
<p>${breaking} breaking, ${risk} to check, ${compatible} additive or compatible changes from <code>${escapeHtml(guide.from)}</code> to <code>${escapeHtml(guide.to)}</code>.</p>
<h2>Timeline</h2>
<table><thead><tr><th>Milestone</th><th>Date</th></tr></thead><tbody>
<tr><td>${escapeHtml(guide.from)} deprecated</td><td><time datetime="${escapeHtml(guide.timeline.deprecatedAt)}">${escapeHtml(guide.timeline.deprecatedAt)}</time></td></tr>
<tr><td>Sunset: removed, requests answered 410 Gone (Sunset header date)</td><td><time datetime="${escapeHtml(guide.timeline.sunsetAt)}">${escapeHtml(guide.timeline.sunsetAt)}</time></td></tr>
<tr><td>Old code deleted (no change for clients)</td><td><time datetime="${escapeHtml(guide.timeline.removedAt)}">${escapeHtml(guide.timeline.removedAt)}</time></td></tr>
</tbody></table>
${notes}${section({ title: 'Breaking changes', entries: guide.breaking, withOld: true, cls: 'breaking' })}${section({ title: 'Changes to check', entries: guide.risks, withOld: true })}${section({ title: 'Additive changes', entries: guide.additive, withOld: false })}${guide.deprecatedEndpoints ? section({ title: 'Deprecated endpoints', entries: guide.deprecatedEndpoints, withOld: true }) : ''}${guide.deprecated ? section({ title: 'Deprecated fields and parameters', entries: guide.deprecated, withOld: true }) : ''}</body>
</html>
`;
}

function section(s: { title: string; entries: GuideEntry[]; withOld: boolean; cls?: string }): string {
  const heading = `<h2${s.cls === undefined ? '' : ` class="${s.cls}"`}>${escapeHtml(s.title)}</h2>\n`;
  if (s.entries.length === 0) return `${heading}<p>None.</p>\n`;
  const head = s.withOld
    ? '<tr><th>Endpoint</th><th>Old behaviour</th><th>New behaviour</th></tr>'
    : '<tr><th>Endpoint</th><th>New behaviour</th></tr>';
  const rows = s.entries
    .map((e) => {
      const where = e.operations.length > 0 ? e.operations : [e.endpoint];
      const endpoint = where.map((op) => `<code>${escapeHtml(op)}</code>`).join('<br>');
      const before = s.withOld ? `<td>${withCode(e.oldBehaviour)}${snippet(e.before, 'Before')}</td>` : '';
      return `<tr><td>${endpoint}</td>${before}<td>${withCode(e.newBehaviour)}${snippet(e.after, 'After')}</td></tr>`;
    })
    .join('\n');
  return `${heading}<table><thead>${head}</thead><tbody>\n${rows}\n</tbody></table>\n`;
}

function snippet(shape: Record<string, unknown> | undefined, label: string): string {
  return shape === undefined ? '' : `<pre aria-label="${label}"><code>${escapeHtml(formatSnippet(shape))}</code></pre>`;
}

/** Escape text and turn its Markdown code spans into `<code>` elements; a lone backtick stays. */
function withCode(text: string): string {
  return text
    .split(/`([^`]+)`/)
    .map((part, i) => (i % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

/** Escape text for HTML element content and quoted attributes. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
