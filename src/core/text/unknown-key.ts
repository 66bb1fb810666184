/**
 * The known name nearest to a mistyped one: the same but for case, a prefix of four or more
 * characters, or within two edits. `undefined` when none is close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return (
    known.find((k) => k.toLowerCase() === lower) ??
    known.find((k) => lower.length >= 4 && (k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase()))) ??
    known.find((k) => editDistance(k.toLowerCase(), lower) <= 2)
  );
}

/**
 * One message for an unknown key of a config object, at any depth, with "did you mean" when a
 * known key is near, so that every level of the file reads the same.
 */
export function unknownKey(where: string, key: string, known: readonly string[]): string {
  const near = nearestName(key, known);
  return `${where}: unknown key "${key}"${near ? `; did you mean "${near}"?` : ''} (known: ${known.join(', ')})`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}
