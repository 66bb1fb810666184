/**
 * A client's own date past a subject's sunset, as granted within the subject's cap
 * (`extendedAccessUntil`): a grant never reaches past the cap, and a subject without a cap grants
 * nothing. The one clamp every reader of extended access applies (versions, endpoints, elements).
 *
 * @example
 * ```ts
 * cappedUntil(Date.parse('2027-09-01'), Date.parse('2027-06-01')); // the cap, 2027-06-01
 * cappedUntil(Date.parse('2027-09-01'), undefined); // undefined: no extended access without a cap
 * ```
 */
export function cappedUntil(until: number | undefined, cap: number | undefined): number | undefined {
  return until === undefined || cap === undefined ? undefined : Math.min(until, cap);
}
