export { DAY_MS, daysFromCivil, daysInMonth, isLeapYear, toCivil } from './civil.ts';
export type { CivilTime } from './civil.ts';
export { addDays, assertIsoInstant, formatIsoDate, formatIsoInstant, parseIsoInstant } from './iso-instant.ts';
export { formatImfFixdate, parseImfFixdate } from './http-date.ts';
