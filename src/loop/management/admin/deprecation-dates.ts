import type { DeprecationDates } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';

/**
 * A deprecation's dates as the management API shows them: ISO 8601 instants, the two optional
 * ones only when set. The deprecation list and a created endpoint deprecation say them alike.
 */
export function isoDeprecationDates(d: DeprecationDates & { deprecatedAt: number; sunsetAt: number }) {
  return {
    deprecatedAt: formatIsoInstant(d.deprecatedAt),
    sunsetAt: formatIsoInstant(d.sunsetAt),
    ...(d.extendedAccessUntil === undefined ? {} : { extendedAccessUntil: formatIsoInstant(d.extendedAccessUntil) }),
    ...(d.closedToNewClientsAt === undefined ? {} : { closedToNewClientsAt: formatIsoInstant(d.closedToNewClientsAt) }),
  };
}
