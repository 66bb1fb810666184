export { parseAccept, type AcceptInfo } from './accept.ts';
export { resolveVersion, type ResolvedVersion } from './resolve-version.ts';
