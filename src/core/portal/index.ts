export { buildChangelog, sunsetCountdown, toBrownoutEntries } from './changelog.ts';
export type { Changelog, ChangelogEntry, ChangelogVersion, SunsetCountdown } from './changelog.ts';
export { toClosingEntries } from './changelog-entry.ts';

export { apiCatalogProfile, apiCatalogType, toApiCatalog } from './api-catalog.ts';

export { fillDays, lastDays, projectBurnDown, rankClients } from './burn-down.ts';
/** @internal exported for the tests */
export { startOfDay } from './burn-down.ts';
export type { BurnDown, ClientTrend, DailyCount } from './burn-down.ts';
export { breaksPath } from './breaks-path.ts';
