import type { LintFinding } from './types.ts';

/** Plain-text lint report, one finding per two lines, and a count. */
export function formatFindingsText(findings: readonly LintFinding[]): string {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${f.rule}  ${f.method === undefined ? '' : `${f.method} `}${f.path}`);
    lines.push(`  ${f.message} Fix: ${f.suggestion}`);
  }
  lines.push(findings.length === 0 ? 'No findings.' : `${findings.length} finding${findings.length === 1 ? '' : 's'}.`);
  return `${lines.join('\n')}\n`;
}

/** JSON lint report: `{ count, findings }`. */
export function formatFindingsJson(findings: readonly LintFinding[]): string {
  return `${JSON.stringify({ count: findings.length, findings }, null, 2)}\n`;
}
