import { escapeControls } from '../core/text/index.ts';

/**
 * A plain-text table: the head, then one line per row, each column as wide as its widest cell,
 * two spaces between columns, no trailing spaces, and a newline after every line. Cells hold
 * server text: a stored `\r` or terminal escape is printed escaped, never obeyed.
 */
export function formatTable(options: { head: readonly string[]; rows: readonly (readonly string[])[] }): string {
  const { head } = options;
  const rows = options.rows.map((row) => row.map(escapeControls));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const lines = [head, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
