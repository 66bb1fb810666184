import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { Static } from '@sinclair/typebox';
import type { DeprecationDates } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import type { scheduleDeprecationSchema } from './admin-schemas.ts';

/**
 * The two optional dates beside a deprecation, as the management API takes them (the body of
 * `PUT /admin/v1/versions/{name}/deprecation`). `null` unsets one; an absent one keeps its current value.
 */
type LifecycleDatesInput = Pick<Static<typeof scheduleDeprecationSchema.body>, keyof DeprecationDates>;

/** The dates a cap and a closing are checked against, and the values an absent field keeps. */
export interface LifecycleDatesContext {
  sunsetAt: number;
  deprecatedAt: number;
  now: number;
  /** The values stored before this write: kept when the body leaves a field out. */
  current?: DeprecationDates | undefined;
}

type Key = keyof LifecycleDatesInput;

/**
 * The cap on extended access and the closing to new clients of a deprecation body, checked and
 * merged with the current values: the cap must come after the sunset it extends, and a closing
 * given now must not come before now or before the deprecation (it would cut off clients that
 * were never told). Every mistake is listed in one 400 problem; unset dates are absent.
 */
export function lifecycleDatesOf(body: LifecycleDatesInput, context: LifecycleDatesContext): DeprecationDates {
  const errors: Array<{ pointer: string; detail: string }> = [];
  const read = (key: Key): number | undefined => {
    const raw = body[key];
    if (raw === undefined) return context.current?.[key];
    if (raw === null) return undefined;
    const at = parseIsoInstant(raw);
    if (at === undefined) errors.push({ pointer: `/body/${key}`, detail: 'not an ISO 8601 date' });
    return at;
  };
  const cap = read('extendedAccessUntil');
  const closed = read('closedToNewClientsAt');
  if (cap !== undefined && cap <= context.sunsetAt)
    errors.push({
      pointer: '/body/extendedAccessUntil',
      detail: `must be after the sunset it extends (${formatIsoInstant(context.sunsetAt)})${
        body.extendedAccessUntil === undefined ? '; the current cap is not: give a new one, or null to unset it' : ''
      }`,
    });
  // Only a closing given in this body is judged: a stored one that has passed is the normal case.
  if (closed !== undefined && typeof body.closedToNewClientsAt === 'string')
    errors.push(...closingErrors(closed, context));
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

function closingErrors(closed: number, context: LifecycleDatesContext): Array<{ pointer: string; detail: string }> {
  const detail =
    closed < context.now
      ? `must not be in the past (now is ${formatIsoInstant(context.now)}): it would cut off new clients at once, with no notice`
      : closed < context.deprecatedAt
        ? `must not come before the deprecation (${formatIsoInstant(context.deprecatedAt)}): clients would be shut out before being told`
        : undefined;
  return detail === undefined ? [] : [{ pointer: '/body/closedToNewClientsAt', detail }];
}
