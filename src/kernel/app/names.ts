import type { ApiDocumentInfo } from '../../loop/lifecycle/openapi/api-info.ts';

/** Where the versioned API lives: `/api/v1/…`, `/api/v2/…`. */
export const apiPrefix = '/api';
/** The vendor of the media types clients may name a version in (`application/vnd.versionary.v2+json`). */
export const vendor = 'versionary';
/** Release dates of the built-in versions, used when the config file gives none. */
export const builtInReleases: Record<string, string> = { v1: '2025-01-15T00:00:00Z', v2: '2026-03-02T00:00:00Z' };

/**
 * What the reference service's version documents say of its API: its own description, and the
 * license of its code. Only the reference service's: an app's documents say what the app gave.
 */
export const referenceApiInfo = (version: string): ApiDocumentInfo => ({
  description: `Version ${version} of the users-and-posts API. Errors are RFC 9457 problems (\`application/problem+json\`); the machine-readable lifecycle of every version is at \`/api/versions\`.`,
  license: { name: 'MIT', identifier: 'MIT' },
});
