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
  out.push(...section('Breaking changes', guide.breaking, true));
  out.push(...section('Changes to check', guide.risks, true));
  out.push(...section('Additive changes', guide.additive, false));
  if (guide.deprecatedEndpoints) out.push(...section('Deprecated endpoints', guide.deprecatedEndpoints, true));
  if (guide.deprecated) out.push(...section('Deprecated fields and parameters', guide.deprecated, true));
  return `${out.join('\n').trimEnd()}\n`;
}

function section(title: string, entries: GuideEntry[], withOld: boolean): string[] {
  if (entries.length === 0) return [`## ${title}`, '', 'None.', ''];
  const out = [`## ${title}`, ''];
  out.push(withOld ? '| Endpoint | Old behaviour | New behaviour |' : '| Endpoint | New behaviour |');
  out.push(withOld ? '| --- | --- | --- |' : '| --- | --- |');
  for (const e of entries) {
    out.push(
      withOld
        ? `| ${cell(e.endpoint)} | ${cell(e.oldBehaviour)} | ${cell(e.newBehaviour)} |`
        : `| ${cell(e.endpoint)} | ${cell(e.newBehaviour)} |`,
    );
  }
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
