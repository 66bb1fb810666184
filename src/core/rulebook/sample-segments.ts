import { DAY_MS, parseIsoInstant } from '../time/index.ts';
import type { RuleSegment, Segmented } from './table.ts';

/** A subject's answer at one instant, and the instant it next changes (`Infinity`: never by time). */
export interface Sample {
  outcome: 'allow' | 'refuse';
  headers: Record<string, string>;
  problem?: string;
  until: number;
}

// The Warning's day count, as `deprecationHeaders` words it, followed by the instant it counts to.
const dayCount = / in (\d+) days, at (\d{4}-\d\d-\d\dT[\d:.]+Z)/;

/**
 * A subject's segments from `start` on, asking core at each instant its answer changes, so the
 * table says nothing core would not; a `Warning`'s daily countdown is one segment with `{days}`.
 */
export function sampleSegments(at: (instant: number) => Sample, start: number): Segmented<RuleSegment> {
  const segments: RuleSegment[] = [];
  let instant = start;
  // A schedule changes its answer at most ~35 times (30 day counts, the warning, the removal).
  for (let guard = 0; guard < 400; guard++) {
    const sample = at(instant);
    const segment = templated(
      {
        from: segments.length === 0 ? 0 : instant,
        outcome: sample.outcome,
        headers: sample.headers,
        ...(sample.problem === undefined ? {} : { problem: sample.problem }),
      },
      instant,
    );
    const last = segments.at(-1);
    if (last === undefined || !sameAnswer(last, segment)) segments.push(segment);
    if (!Number.isFinite(sample.until) || sample.until <= instant) break;
    instant = sample.until;
  }
  return segments;
}

/** A segment whose `warning` counts two days or more, with the count as `{days}`. */
function templated(segment: RuleSegment, instant: number): RuleSegment {
  const warning = segment.headers.warning;
  const found = warning === undefined ? null : dayCount.exec(warning);
  if (found === null) return segment;
  const daysTo = parseIsoInstant(found[2]!);
  if (daysTo === undefined || Math.floor((daysTo - instant) / DAY_MS) !== Number(found[1])) return segment;
  const value = warning!.replace(found[0], ` in {days} days, at ${found[2]}`);
  return { ...segment, headers: { ...segment.headers, warning: value }, daysTo };
}

function sameAnswer(a: RuleSegment, b: RuleSegment): boolean {
  return (
    a.outcome === b.outcome &&
    a.problem === b.problem &&
    a.daysTo === b.daysTo &&
    JSON.stringify(a.headers) === JSON.stringify(b.headers)
  );
}
