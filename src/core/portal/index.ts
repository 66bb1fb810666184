export { sunsetCountdown, URGENT_DAYS } from './countdown.ts';
export type { SunsetCountdown } from './countdown.ts';
export { buildChangelog } from './changelog.ts';
export type { BuildChangelogOptions, Changelog, ChangelogEndpoint, ChangelogEntry, ChangelogKind, ChangelogVersion } from './changelog.ts';
export { apiCatalogProfile, apiCatalogType, toApiCatalog } from './api-catalog.ts';
export type { ApiCatalog, CatalogVersion, LinkContext, LinkTarget } from './api-catalog.ts';
