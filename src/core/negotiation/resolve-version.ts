import { echo } from '../errors/index.ts';
import { parseAccept } from './accept.ts';
import {
  acceptSeveralProblem,
  acceptUnreadableProblem,
  notAcceptableProblem,
  versionConflictProblem,
  versionMissingProblem,
} from '../rulebook/problems.ts';

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
  const { supported } = options;
  if (info.malformed.length > 0) throw acceptUnreadableProblem({ ranges: echo(info.malformed.join(', ')), supported });
  if (info.versions.length > 1)
    throw acceptSeveralProblem({ versions: info.versions.map((v) => `v${v}`).join(', '), supported });
  const acceptVersion = info.versions[0];
  if (options.pathVersion !== undefined && acceptVersion !== undefined && acceptVersion !== options.pathVersion)
    throw versionConflictProblem({ path: `v${options.pathVersion}`, accept: `v${acceptVersion}`, supported });
  if (!info.acceptsJson) throw notAcceptableProblem({ supported });
  if (options.pathVersion !== undefined) return { number: options.pathVersion, source: 'path' };
  if (acceptVersion !== undefined) return { number: acceptVersion, source: 'accept' };
  throw versionMissingProblem({ prefix: '/api', vendor: options.vendor, supported: options.supported });
}
