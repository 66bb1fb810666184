/** Where the versioned API lives: `/api/v1/…`, `/api/v2/…`. */
export const apiPrefix = '/api';
/** The vendor of the media types clients may name a version in (`application/vnd.versionary.v2+json`). */
export const vendor = 'versionary';
/** Release dates of the built-in versions, used when the config file gives none. */
export const builtInReleases: Record<string, string> = { v1: '2025-01-15T00:00:00Z', v2: '2026-03-02T00:00:00Z' };
