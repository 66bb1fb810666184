export { sunsetCountdown } from './countdown.ts';
export type { SunsetCountdown } from './countdown.ts';
export { buildChangelog, toBrownoutEntries } from './changelog.ts';
export { toClosingEntries } from './closing-entries.ts';
export type { Changelog, ChangelogEntry, ChangelogVersion } from './changelog.ts';

export { apiCatalogProfile, apiCatalogType, toApiCatalog } from './api-catalog.ts';

export { fillDays, startOfDay } from './trend.ts';
export type { DailyCount } from './trend.ts';
export { projectBurnDown, rankClients } from './burn-down.ts';
export type { BurnDown, ClientTrend } from './burn-down.ts';
export { breaksPath } from './breaks-path.ts';
