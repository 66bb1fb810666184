import { formatSnippet } from './schema-snippet.ts';
import type { GuideEntry, MigrationGuide } from './types.ts';

/**
 * Render a guide as Markdown.
 *
 * @example
 * ```ts
 * const md = toMarkdown(createMigrationGuide(options));
 * ```
 */
export function toMarkdown(guide: MigrationGuide): string {
  const out: string[] = [`# ${inline(guide.title)}`, ''];
  const { breaking, risk, compatible } = guide.summary;
  out.push(
    `${breaking} breaking, ${risk} to check, ${compatible} additive or compatible changes from ${inline(guide.from)} to ${inline(guide.to)}.`,
    '',
  );
  out.push('## Timeline', '', '| Milestone | Date |', '| --- | --- |');
  out.push(`| ${inline(guide.from)} deprecated | ${guide.timeline.deprecatedAt} |`);
  // One removal date: the sunset is when requests start getting 410 Gone. The later date only says
  // when the old code may be deleted, which clients never see, so it is named that.
  out.push(`| Sunset: removed, requests answered 410 Gone (Sunset header date) | ${guide.timeline.sunsetAt} |`);
  out.push(`| Old code deleted (no change for clients) | ${guide.timeline.removedAt} |`, '');
  if (guide.notes.length > 0) {
    out.push('## What changed', '');
    for (const note of guide.notes) out.push(`- ${inline(note)}`);
    out.push('');
  }
  for (const s of sections(guide)) out.push(...markdownSection(s));
  return `${out.join('\n').trimEnd()}\n`;
}

interface Section {
  title: string;
  entries: GuideEntry[];
  withOld: boolean;
  cls?: string;
}

/** The guide's tables, in order; the deprecation ones only when the guide has them. */
function sections(guide: MigrationGuide): Section[] {
  const withOld = (title: string, entries: GuideEntry[] | undefined) =>
    entries === undefined ? [] : [{ title, entries, withOld: true }];
  return [
    { title: 'Breaking changes', entries: guide.breaking, withOld: true, cls: 'breaking' },
    ...withOld('Changes to check', guide.risks),
    { title: 'Additive changes', entries: guide.additive, withOld: false },
    ...withOld('Deprecated endpoints', guide.deprecatedEndpoints),
    ...withOld('Deprecated fields and parameters', guide.deprecated),
  ];
}

/** A section's column headings: the old behaviour only where the section shows it. */
function columns(s: Section): string[] {
  return ['Endpoint', ...(s.withOld ? ['Old behaviour'] : []), 'New behaviour'];
}

function markdownSection(s: Section): string[] {
  const { title, entries, withOld } = s;
  if (entries.length === 0) return [`## ${title}`, '', 'None.', ''];
  const out = [`## ${title}`, '', `| ${columns(s).join(' | ')} |`, `|${' --- |'.repeat(columns(s).length)}`];
  for (const e of entries)
    out.push(`| ${[e.endpoint, ...(withOld ? [e.oldBehaviour] : []), e.newBehaviour].map(cell).join(' | ')} |`);
  out.push('');
  // A table cell holds one line: a changed type's shapes follow the table, before and after.
  for (const e of entries) {
    if (e.before === undefined || e.after === undefined) continue;
    out.push(`${cell(e.endpoint)}: ${inline(e.newBehaviour)}`, '');
    out.push('Before:', '', '```json', formatSnippet(e.before), '```', '', 'After:', '', '```json');
    out.push(formatSnippet(e.after), '```', '');
  }
  return out;
}

function cell(text: string): string {
  return inline(text).replaceAll('|', '\\|');
}

/**
 * Prose may come from declarations: keep it on one line and stop it opening HTML. A code span
 * shows its text as written (an entity there would print as `&lt;`), so only the rest is escaped.
 */
function inline(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll('<', '&lt;')))
    .join('');
}

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
${notes}${sections(guide).map(htmlSection).join('')}</body>
</html>
`;
}

function htmlSection(s: Section): string {
  const heading = `<h2${s.cls === undefined ? '' : ` class="${s.cls}"`}>${escapeHtml(s.title)}</h2>\n`;
  if (s.entries.length === 0) return `${heading}<p>None.</p>\n`;
  const head = columns(s).map((c) => `<th>${c}</th>`);
  const rows = s.entries
    .map((e) => {
      const where = e.operations.length > 0 ? e.operations : [e.endpoint];
      const endpoint = where.map((op) => `<code>${escapeHtml(op)}</code>`).join('<br>');
      const before = s.withOld ? `<td>${withCode(e.oldBehaviour)}${snippet(e.before, 'Before')}</td>` : '';
      return `<tr><td>${endpoint}</td>${before}<td>${withCode(e.newBehaviour)}${snippet(e.after, 'After')}</td></tr>`;
    })
    .join('\n');
  return `${heading}<table><thead><tr>${head.join('')}</tr></thead><tbody>\n${rows}\n</tbody></table>\n`;
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

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * Render a guide as JSON (the guide object itself, pretty-printed).
 *
 * @example
 * ```ts
 * JSON.parse(toJson(guide)).timeline.sunsetAt;
 * ```
 */
export function toJson(guide: MigrationGuide): string {
  return `${JSON.stringify(guide, null, 2)}\n`;
}
