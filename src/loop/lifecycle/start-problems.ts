import { isVersionaryError } from '../../core/errors/index.ts';
import type { LoopConfig } from '../host/config.ts';
import { lifecycleSection } from './settings.ts';
import { checkLifecycleConfig, PolicyRule } from '../../core/lifecycle/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import {
  configuredSchedule,
  defaultSchedule,
  lifecycleVersionsOf,
  orderVersions,
  releaseDates,
} from './policy-check.ts';

/** Each problem a start-up error lists; undefined for an error that is not Versionary's (a bug). */
export function problemsOf(error: unknown): string[] | undefined {
  if (!isVersionaryError(error)) return undefined;
  if (error.errors && error.errors.length > 0) return error.errors.map((e) => e.detail);
  const violations = error.extensions?.violations;
  if (Array.isArray(violations) && violations.length > 0)
    return violations.map((v: { detail?: unknown }) => String(v.detail));
  return [error.detail];
}

/** Every policy violation of the config file alone, before storage opens, told with the configuration's errors. */
export function policyProblems(options: {
  config: LoopConfig;
  versions: readonly string[];
  prefix: string;
  /** Deprecated with the default notice when the file declares no versions; all but the newest by default. */
  defaultDeprecated?: readonly string[];
  /** Release dates of versions whose entry declares none: the reference service's built-in ones, else none. */
  releases?: Readonly<Record<string, string>>;
  now?: number;
}): string[] {
  const { prefix } = options;
  const settings = lifecycleSection.of(options.config);
  const now = options.now ?? Date.now();
  const flawed = new Set(settings.flawed ?? []);
  const configured = Object.fromEntries(Object.entries(settings.versions ?? {}).filter(([name]) => !flawed.has(name)));
  const bundle = releaseDates(
    { versions: options.versions.map((name) => ({ name })) as VersionBundle['versions'] },
    options.releases,
  );
  const { releases, problems } = orderVersions(configured, bundle);
  if (problems.length > 0) return problems.map((p) => `valid-config: ${p}`);
  const defaults = settings.versions ? [] : (options.defaultDeprecated ?? options.versions.slice(0, -1));
  const schedules = new Map(
    releases.flatMap(({ name }) => {
      const schedule = defaults.includes(name)
        ? defaultSchedule(name, now)
        : configured[name] && configuredSchedule(name, configured[name], { now });
      return schedule ? [[name, schedule] as const] : [];
    }),
  );
  const versions = lifecycleVersionsOf(releases, { schedules, configured, prefix });
  // A deprecation the file leaves undated starts at its stored date, else now: only the runtime,
  // with the store, can tell its notice period.
  const undated = (name: unknown) => typeof name === 'string' && configured[name]?.deprecatedAt === undefined;
  return checkLifecycleConfig({ versions, audience: settings.audience })
    .violations.filter((v) => !(v.extensions.rule === PolicyRule.NoticePeriod && undated(v.extensions.version)))
    .map((v) => v.detail);
}
