import { isVersionaryError } from '../../core/errors/index.ts';
import type { LoopConfig } from '../host/config.ts';
import { lifecycleSection } from './settings-section.ts';
import { lifecyclePolicyProblems } from './policy-check.ts';

/** Each problem a start-up error lists; undefined for an error that is not Versionary's (a bug). */
export function problemsOf(error: unknown): string[] | undefined {
  if (!isVersionaryError(error)) return undefined;
  if (error.errors && error.errors.length > 0) return error.errors.map((e) => e.detail);
  const violations = error.extensions?.violations;
  if (Array.isArray(violations) && violations.length > 0)
    return violations.map((v: { detail?: unknown }) => String(v.detail));
  return [error.detail];
}

/** The lifecycle policy of the config file, with no storage, so it is told with the configuration's own errors. */
export function policyProblems(options: {
  config: LoopConfig;
  versions: readonly string[];
  prefix: string;
  defaultDeprecated?: readonly string[];
  /** Release dates of versions whose entry declares none: the reference service's built-in ones, else none. */
  releases?: Readonly<Record<string, string>>;
  now?: number;
}): string[] {
  return lifecyclePolicyProblems({
    settings: lifecycleSection.of(options.config),
    versions: options.versions,
    prefix: options.prefix,
    now: options.now ?? Date.now(),
    defaultDeprecated: options.defaultDeprecated ?? options.versions.slice(0, -1),
    ...(options.releases ? { releases: options.releases } : {}),
  });
}
