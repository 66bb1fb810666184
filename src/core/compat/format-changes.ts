import type { Change, ChangeLevel, DiffResult } from './types.ts';

const ORDER: Record<ChangeLevel, number> = { breaking: 0, risk: 1, compatible: 2 };

/** Where a change sits, for people: `POST /users` or `#/components/schemas/User (via GET /users)`. */
export function describeLocation(change: Change): string {
  const { method, path, pointer, document, via, operationCount } = change.location;
  if (method !== undefined && path !== undefined) return `${method} ${path}`;
  const place = `${document ?? ''}#${pointer}`;
  if (operationCount !== undefined && operationCount > 1)
    return `${place} (used by ${operationCount} operations, e.g. ${via})`;
  return via === undefined ? place : `${place} (via ${via})`;
}

/**
 * Plain-text report for terminals and CI logs.
 *
 * @example
 * ```ts
 * console.log(formatText(diffOpenApi({ base, revision })));
 * ```
 */
export function formatText(result: DiffResult): string {
  const lines: string[] = [];
  // Breaking first, then risk, then compatible; the sort is stable, so document order within a level.
  for (const c of [...result.changes].sort((a, b) => ORDER[a.level] - ORDER[b.level])) {
    lines.push(`${c.level.toUpperCase().padEnd(10)} ${c.id}  ${describeLocation(c)}`);
    lines.push(`           ${c.message}`);
  }
  lines.push(summaryLine(result));
  return `${lines.join('\n')}\n`;
}

/**
 * Markdown report: one table per level, ready for a pull-request comment.
 *
 * @example
 * ```ts
 * const md = formatMarkdown(result);
 * ```
 */
export function formatMarkdown(result: DiffResult): string {
  const out: string[] = ['# API changes', '', summaryLine(result), ''];
  const titles: Record<ChangeLevel, string> = {
    breaking: 'Breaking changes',
    risk: 'Risks',
    compatible: 'Compatible changes',
  };
  for (const level of ['breaking', 'risk', 'compatible'] as const) {
    const rows = result.changes.filter((c) => c.level === level);
    if (rows.length === 0) continue;
    out.push(`## ${titles[level]} (${rows.length})`, '', '| Rule | Where | Change |', '| --- | --- | --- |');
    for (const c of rows) out.push(`| \`${c.id}\` | ${escapeCell(describeLocation(c))} | ${escapeCell(c.message)} |`);
    out.push('');
  }
  return `${out.join('\n')}`;
}

/**
 * JSON report: `{ summary, changes }`, stable for machines.
 *
 * @example
 * ```ts
 * JSON.parse(formatJson(result)).summary.breaking;
 * ```
 */
export function formatJson(result: DiffResult): string {
  return `${JSON.stringify({ summary: result.summary, changes: result.changes }, null, 2)}\n`;
}

function summaryLine(result: DiffResult): string {
  const { breaking, risk, compatible } = result.summary;
  return `${breaking + risk + compatible} changes: ${breaking} breaking, ${risk} risk, ${compatible} compatible.`;
}

/**
 * Escape once: inside a code span Markdown reads backslashes as written, so only the `|` that
 * would end the table cell is escaped there; outside, a backslash before punctuation is doubled
 * so it shows instead of escaping.
 */
function escapeCell(text: string): string {
  return text
    .replaceAll('\n', ' ')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')).replaceAll('|', '\\|'))
    .join('');
}
