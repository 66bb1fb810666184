export { parseAccept } from './accept.ts';
export type { AcceptInfo, ParseAcceptOptions } from './accept.ts';
export { resolveVersion } from './resolve-version.ts';
export type { ResolveVersionOptions, ResolvedVersion, VersionSource } from './resolve-version.ts';
