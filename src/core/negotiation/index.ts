export { parseAccept } from './accept.ts';
export type { AcceptInfo } from './accept.ts';
export { resolveVersion } from './resolve-version.ts';
export type { ResolvedVersion } from './resolve-version.ts';
