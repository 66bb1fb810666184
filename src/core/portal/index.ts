export { sunsetCountdown, URGENT_DAYS } from './countdown.ts';
export type { SunsetCountdown } from './countdown.ts';
export { buildChangelog, toBrownoutEntries } from './changelog.ts';
export type {
  BuildChangelogOptions,
  Changelog,
  ChangelogEndpoint,
  ChangelogEntry,
  ChangelogKind,
  ChangelogVersion,
} from './changelog.ts';
export type { ChangelogElement } from './element-entries.ts';
export { apiCatalogProfile, apiCatalogType, toApiCatalog } from './api-catalog.ts';
export type { ApiCatalog, CatalogVersion, LinkContext, LinkTarget } from './api-catalog.ts';
export { fillDays, fitLine, startOfDay } from './trend.ts';
export type { DailyCount } from './trend.ts';
export { projectBurnDown, rankClients } from './burn-down.ts';
export type { BurnDown, BurnDownVerdict, ClientTrend, ProjectBurnDownOptions } from './burn-down.ts';
export { breaksPath } from './breaks-path.ts';
