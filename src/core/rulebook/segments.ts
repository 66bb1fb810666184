import type { RuleSegment } from './table.ts';

/** Milliseconds in a day: the `{days}` count's unit. */
const dayMs = 86_400_000;

/** The segment in force at `now`: the last whose `from` is at or before it (the first otherwise). */
export function segmentAt<S extends { from: number }>(segments: readonly S[], now: number): S {
  // Segments are few (at most five per subject): a scan from the end beats a search.
  for (let i = segments.length - 1; i > 0; i--) if (segments[i]!.from <= now) return segments[i]!;
  return segments[0]!;
}

/** A segment's headers at `now`, with `{days}` counted down to its `daysTo`. */
export function headersAt(segment: RuleSegment, now: number): Record<string, string> {
  if (segment.daysTo === undefined) return segment.headers;
  const days = String(Math.floor((segment.daysTo - now) / dayMs));
  const headers: Record<string, string> = {};
  for (const name in segment.headers) headers[name] = segment.headers[name]!.replace('{days}', days);
  return headers;
}
