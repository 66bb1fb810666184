export { DAY_MS } from './civil.ts';
export { addDays, assertIsoInstant, formatIsoDate, formatIsoInstant, parseIsoInstant } from './iso-instant.ts';
export { formatImfFixdate, parseImfFixdate } from './http-date.ts';
