/**
 * A client's own date past a subject's sunset, as granted within the subject's cap
 * (`extendedAccessUntil`): a grant never reaches past the cap, and a subject without a cap grants
 * nothing. The one clamp every reader of extended access applies (versions, endpoints, elements).
 */
export function cappedUntil(until: number | undefined, cap: number | undefined): number | undefined {
  return until === undefined || cap === undefined ? undefined : Math.min(until, cap);
}
