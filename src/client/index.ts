// The public entry point `versionary/client`: a fetch-based client for any Versionary-style API.
export { createVersionaryClient } from './create-client.ts';
export type {
  NewVersionNotice,
  VersionaryClient,
  VersionaryClientOptions,
  VersionaryMiddleware,
} from './create-client.ts';
export { describeNotice, SunsetApproachingError } from './deprecation-notice.ts';
export type { DeprecationNotice } from './deprecation-notice.ts';
export {
  parseDeprecationDate,
  parseHttpOrIsoDate,
  parseLifecycleHeaders,
  parseLinkHeader,
  parseWarning,
} from './parse-headers.ts';
export type { ParsedLifecycleHeaders } from './parse-headers.ts';
