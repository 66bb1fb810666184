import { echo, ErrorCode, VersionaryError } from '../errors/index.ts';
import { parseAccept } from './accept.ts';
import { versionMissingProblem } from '../rulebook/problems.ts';

/** Where the version of a request came from. */
type VersionSource = 'path' | 'accept';

/** Options for {@link resolveVersion}. */
export interface ResolveVersionOptions {
  /** Version number found in the path (`/api/v2/...`), if any. */
  pathVersion?: number;
  accept: string | undefined;
  /** Published version names, oldest first, for messages. */
  supported: string[];
  vendor: string;
}

/** The negotiated version. */
export interface ResolvedVersion {
  number: number;
  source: VersionSource;
}

/**
 * Decide the version of a request from its path and `Accept` header. No version anywhere is
 * `VERSION_MISSING`; a path and an `Accept` that disagree are `VERSION_CONFLICT`; an `Accept` that
 * admits no JSON at all is `NOT_ACCEPTABLE`. Whether the number is published is checked by the
 * caller, which knows the versions.
 *
 * @example
 * ```ts
 * resolveVersion({ pathVersion: 2, accept: undefined, supported: ['v1', 'v2'], vendor: 'versionary' })
 * // { number: 2, source: 'path' }
 * ```
 */
export function resolveVersion(options: ResolveVersionOptions): ResolvedVersion {
  const info = parseAccept(options.accept, { vendor: options.vendor });
  const supported = { supportedVersions: options.supported };
  const named = options.supported.join(', ');
  if (info.malformed.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.VersionMissing,
      detail: `Accept names a version that cannot be read (${echo(info.malformed.join(', '))}). Supported versions: ${named}.`,
      extensions: supported,
    });
  }
  if (info.versions.length > 1) {
    throw new VersionaryError({
      code: ErrorCode.VersionConflict,
      detail: `Accept names several versions (${info.versions.map((v) => `v${v}`).join(', ')}); name one.`,
      extensions: supported,
    });
  }
  const acceptVersion = info.versions[0];
  if (options.pathVersion !== undefined && acceptVersion !== undefined && acceptVersion !== options.pathVersion) {
    throw new VersionaryError({
      code: ErrorCode.VersionConflict,
      detail: `The path says v${options.pathVersion} but Accept says v${acceptVersion}.`,
      extensions: supported,
    });
  }
  if (!info.acceptsJson) {
    throw new VersionaryError({
      code: ErrorCode.NotAcceptable,
      detail: 'This API answers only with JSON: accept application/json or a versioned media type.',
      extensions: supported,
    });
  }
  if (options.pathVersion !== undefined) return { number: options.pathVersion, source: 'path' };
  if (acceptVersion !== undefined) return { number: acceptVersion, source: 'accept' };
  throw versionMissingProblem({ prefix: '/api', vendor: options.vendor, supported: options.supported });
}
