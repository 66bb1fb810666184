// The public entry point `versionary/client`: a fetch-based client for any Versionary-style API.
export { createVersionaryClient } from './create-client.ts';
export type {
  NewVersionNotice,
  VersionaryClient,
  VersionaryClientOptions,
  VersionaryMiddleware,
} from './create-client.ts';
export { describeNotice, SunsetApproachingError, type DeprecationNotice } from './deprecation-notice.ts';
export {
  parseDeprecationDate,
  parseHttpOrIsoDate,
  parseLifecycleHeaders,
  parseLinkHeader,
  parseWarning,
} from './parse-headers.ts';
export type { ParsedLifecycleHeaders } from './parse-headers.ts';
export { DeprecatedUseError, describeManifestNotice, type ManifestNotice } from './manifest-check.ts';
export { ManifestUnreadableError, parseDeprecationManifest, type ManifestEntry } from './manifest.ts';
export type { ManifestOptions } from './manifest-watch.ts';
