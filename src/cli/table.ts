/**
 * A plain-text table: the head, then one line per row, each column as wide as its widest cell,
 * two spaces between columns, no trailing spaces, and a newline after every line. Cells are
 * printed as given: escape server text (`escapeControls`) before it reaches a terminal.
 */
export function formatTable(options: { head: readonly string[]; rows: readonly (readonly string[])[] }): string {
  const { head, rows } = options;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const lines = [head, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
