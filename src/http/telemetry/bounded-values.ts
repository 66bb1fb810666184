/** The value every client past the bound is counted as. */
const otherValue = 'other';

/**
 * A label that keeps at most `limit` distinct values for the life of the process: the first ones
 * seen stay themselves, every later one is {@link otherValue}. A counter by client would otherwise
 * make one series per client, and a metrics backend pays for every series.
 */
export function createBoundedValues(limit: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= limit) return otherValue;
    seen.add(value);
    return value;
  };
}
