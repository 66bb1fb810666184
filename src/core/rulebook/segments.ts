import { DAY_MS } from '../time/index.ts';
import type { RuleSegment } from './table.ts';

/** The segment in force at `now`: the last whose `from` is at or before it (the first otherwise). */
export function segmentAt<S extends { from: number }>(segments: readonly S[], now: number): S {
  // Segments are few (at most five per subject): a scan from the end beats a search.
  for (let i = segments.length - 1; i > 0; i--) if (segments[i]!.from <= now) return segments[i]!;
  return segments[0]!;
}

/**
 * The headers of a counting segment for the day count they were last rendered with: a segment
 * belongs to one table generation, so the cache goes with it, and a day's calls share one object.
 */
const rendered = new WeakMap<RuleSegment, { days: number; headers: Record<string, string> }>();

/** A segment's headers at `now`, with `{days}` counted down to its `daysTo` (rendered once per day, not per call). */
export function headersAt(segment: RuleSegment, now: number): Record<string, string> {
  if (segment.daysTo === undefined) return segment.headers;
  const days = Math.floor((segment.daysTo - now) / DAY_MS);
  const hit = rendered.get(segment);
  if (hit !== undefined && hit.days === days) return hit.headers;
  const text = String(days);
  const headers: Record<string, string> = {};
  for (const name in segment.headers) headers[name] = segment.headers[name]!.replace('{days}', text);
  rendered.set(segment, { days, headers: Object.freeze(headers) as Record<string, string> });
  return headers;
}
