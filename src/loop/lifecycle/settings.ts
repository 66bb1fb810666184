import {
  capErrors,
  closingErrors,
  checkLifecycleRules,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
  parseElementDeprecations,
  readEndpointEntry,
  readVersionEntry,
  type Audience,
  type ElementDeprecation,
  type EndpointLifecycle,
  type LifecycleConfig,
  type VersionLifecycle,
} from '../../core/lifecycle/index.ts';
import type { DeprecationHeaderStyle } from '../../core/lifecycle/index.ts';
import { DeprecationWarningCode, deprecationWarnings } from '../../http/warnings.ts';
import { migrationUrlProblem } from '../../core/text/index.ts';
import { isPlainObject } from '../../core/versions/index.ts';
import { settingsSection } from '../host/config.ts';

/** One version's entry as the config file declares it, read (instants in epoch ms). */
export type VersionSettings = VersionLifecycle;

export interface LifecycleSettings {
  audience: Audience;
  removedStatus: 410 | 404;
  headerStyle: DeprecationHeaderStyle;
  /** Present only when the file has a `versions` key. */
  versions?: Record<string, VersionSettings>;
  endpointDeprecations: EndpointLifecycle[];
  /** Fields and query parameters deprecated within a version (`fieldDeprecations`, `parameterDeprecations`). */
  elementDeprecations?: ElementDeprecation[];
  /** Versions whose entry has an error already reported: the policy check at start leaves them out, so each mistake is told once. */
  flawed?: string[];
  /** Deprecated spellings that were accepted, for the log at start, each with its stable code. */
  warnings?: Array<{ code: string; detail: string }>;
}

/**
 * Read the lifecycle keys of the config file (or the loop's `settings`), pushing every error into `errors`.
 * @internal exported for the tests (the loop reads it through `lifecycleSection`)
 */
export function parseLifecycleSettings(options: {
  file: Record<string, unknown>;
  errors: string[];
}): LifecycleSettings {
  const { errors } = options;
  const file: Record<string, unknown> = Object.fromEntries(
    lifecycleConfigKeys.filter((key) => options.file[key] !== undefined).map((key) => [key, options.file[key]]),
  );
  const problems = [...lifecycleShapeErrors(file, ''), ...checkLifecycleRules({ config: file, where: '' })];
  const style = file.headerStyle;
  const warnings = [
    // The library once spelled these so: accepted, so a config written from its docs still starts.
    ...(style === 'iso'
      ? [{ code: DeprecationWarningCode.HeaderStyleIso, detail: deprecationWarnings.VERSIONARY_DEP001 }]
      : []),
    ...(file.endpoints !== undefined
      ? [{ code: DeprecationWarningCode.EndpointsKey, detail: deprecationWarnings.VERSIONARY_DEP002 }]
      : []),
  ];
  // Each entry is read by its schema: one with a problem (told above) is left out.
  let versions: Record<string, VersionSettings> | undefined;
  if (file.versions !== undefined) {
    versions = {};
    for (const [name, raw] of Object.entries(isPlainObject(file.versions) ? file.versions : {})) {
      const entry = readVersionEntry(raw);
      if (!entry) continue;
      const where = `versions.${name}.migrationUrl`;
      versions[name] = {
        ...entry,
        migrationUrl: url({ value: entry.migrationUrl, where, problems }),
        removed: entry.removed === true,
        reason: entry.reason ?? 'planned',
      };
    }
  }
  const key = file.endpointDeprecations !== undefined ? 'endpointDeprecations' : 'endpoints';
  const list = Array.isArray(file[key]) ? (file[key] as unknown[]) : [];
  const endpointDeprecations = list.flatMap((raw, i) => {
    const entry = readEndpointEntry(raw);
    if (!entry) return [];
    const migrationUrl = url({ value: entry.migrationUrl, where: `${key}[${i}].migrationUrl`, problems });
    return [{ ...entry, method: entry.method.toUpperCase(), migrationUrl }];
  });
  list.forEach(
    (raw, i) =>
      isPlainObject(raw) && problems.push(...capErrors(raw, `${key}[${i}]`), ...closingErrors(raw, `${key}[${i}]`)),
  );
  errors.push(...problems);
  // An entry with an error is told once: the policy check at start leaves its version out.
  const flawed = Object.keys(versions ?? {}).filter((name) =>
    problems.some((p) => p.startsWith(`versions.${name}.`) || p.startsWith(`versions.${name} `)),
  );
  const elementsSound = !problems.some((p) => /^(field|parameter)Deprecations\b/.test(p));
  const elementDeprecations = elementsSound ? parseElementDeprecations(file as LifecycleConfig) : [];
  return {
    ...(elementDeprecations.length > 0 ? { elementDeprecations } : {}),
    audience: file.audience === 'enterprise' ? 'enterprise' : 'public',
    removedStatus: file.removedStatus === 404 ? 404 : 410,
    headerStyle: style === 'rfc' ? 'rfc' : 'iso8601',
    ...(versions ? { versions } : {}),
    endpointDeprecations,
    ...(flawed.length > 0 ? { flawed } : {}),
    warnings,
  };
}

// The schema's pattern told most bad URLs already; what it cannot state (a port past 65535) is told here, once.
function url(options: { value: unknown; where: string; problems: string[] }): string | undefined {
  if (typeof options.value !== 'string') return undefined;
  const problem = migrationUrlProblem(options.value, options.where);
  if (problem && !options.problems.some((p) => p.startsWith(`${options.where} `))) options.problems.push(problem);
  return problem ? undefined : options.value;
}

/** The lifecycle part's section of the config file: the versions' schedules and the lifecycle's rules. */
export const lifecycleSection = settingsSection('lifecycle', {
  keys: lifecycleConfigKeys,
  parse: parseLifecycleSettings,
});
