import type { ApiDocumentInfo } from '../loop/host/api-info.ts';

/**
 * What the reference service's version documents say of its API: its own description, and the
 * license of its code. Only the reference service's: an app's documents say what the app gave.
 */
export const referenceApiInfo = (version: string): ApiDocumentInfo => ({
  description: `Version ${version} of the users-and-posts API. Errors are RFC 9457 problems (\`application/problem+json\`); the machine-readable lifecycle of every version is at \`/api/versions\`.`,
  license: { name: 'MIT', identifier: 'MIT' },
});
