import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';

/** The two optional dates beside a deprecation, as the management API takes them. */
export interface LifecycleDatesInput {
  extendedAccessUntil?: string;
  closedToNewClientsAt?: string;
}

/**
 * The cap on extended access and the closing to new clients of a deprecation body, checked: the
 * cap must come after the sunset it extends. Every mistake is listed in one 400 problem; unset
 * dates are absent.
 *
 * @example
 * ```ts
 * lifecycleDatesOf({ extendedAccessUntil: '2027-09-01' }, Date.parse('2027-06-01')); // { extendedAccessUntil: 1819584000000 }
 * ```
 */
export function lifecycleDatesOf(
  body: LifecycleDatesInput,
  sunsetAt: number,
): { extendedAccessUntil?: number; closedToNewClientsAt?: number } {
  const errors: Array<{ pointer: string; detail: string }> = [];
  const read = (key: keyof LifecycleDatesInput) => {
    const raw = body[key];
    if (raw === undefined) return undefined;
    const at = parseIsoInstant(raw);
    if (at === undefined) errors.push({ pointer: `/body/${key}`, detail: 'not an ISO 8601 date' });
    return at;
  };
  const cap = read('extendedAccessUntil');
  const closed = read('closedToNewClientsAt');
  if (cap !== undefined && cap <= sunsetAt)
    errors.push({
      pointer: '/body/extendedAccessUntil',
      detail: `must be after the sunset it extends (${formatIsoInstant(sunsetAt)})`,
    });
  if (errors.length > 0)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The lifecycle dates have ${errors.length} error(s): ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`,
      errors,
    });
  return {
    ...(cap === undefined ? {} : { extendedAccessUntil: cap }),
    ...(closed === undefined ? {} : { closedToNewClientsAt: closed }),
  };
}
