import {
  capErrors,
  closingErrors,
  checkLifecycleRules,
  instantMs,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
  parseElementDeprecations,
  type Audience,
  type DeprecationReason,
  type ElementDeprecation,
  type LifecycleConfig,
} from '../../core/lifecycle/index.ts';
import type { DeprecationHeaderStyle } from '../../core/lifecycle/index.ts';
import { DeprecationWarningCode, deprecationWarnings } from '../../http/warnings.ts';
import { migrationUrlProblem } from '../../core/text/index.ts';

/** One version's lifecycle as the config file declares it. */
export interface VersionSettings {
  releasedAt?: number;
  deprecatedAt?: number;
  sunsetAt?: number;
  replacement?: string;
  migrationUrl?: string;
  removed?: boolean;
  reason?: DeprecationReason;
  extendedAccessUntil?: number;
  closedToNewClientsAt?: number;
}

/** An endpoint deprecation as the config file declares it. */
interface EndpointSettings {
  version: string;
  method: string;
  path: string;
  deprecatedAt?: number;
  sunsetAt: number;
  migrationUrl?: string;
  extendedAccessUntil?: number;
  closedToNewClientsAt?: number;
}

/** The lifecycle part of the config file, parsed. */
export interface LifecycleSettings {
  audience: Audience;
  removedStatus: 410 | 404;
  headerStyle: DeprecationHeaderStyle;
  /** Present only when the file has a `versions` key. */
  versions?: Record<string, VersionSettings>;
  endpointDeprecations: EndpointSettings[];
  /** Fields and query parameters deprecated within a version (`fieldDeprecations`, `parameterDeprecations`). */
  elementDeprecations?: ElementDeprecation[];
  /** Versions whose entry has an error already reported: the policy check at start leaves them out, so each mistake is told once. */
  flawed?: string[];
  /** Deprecated spellings that were accepted, for the log at start, each with its stable code. */
  warnings?: Array<{ code: string; detail: string }>;
}

/**
 * Read the lifecycle keys of the config file (or the loop's `settings`), pushing every error found
 * into `errors`: the shape against the core's `LifecycleConfigSchema`, the plugin's very shape, then
 * the rules across fields and the migration URLs (an absolute http(s) URL or a path).
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
  let versions: Record<string, VersionSettings> | undefined;
  if (file.versions !== undefined) {
    versions = {};
    for (const [name, raw] of Object.entries(isObject(file.versions) ? file.versions : {})) {
      if (!isObject(raw)) continue;
      versions[name] = {
        releasedAt: instantMs(raw.releasedAt),
        deprecatedAt: instantMs(raw.deprecatedAt),
        sunsetAt: instantMs(raw.sunsetAt),
        replacement: str(raw.replacement),
        migrationUrl: url({ value: raw.migrationUrl, where: `versions.${name}.migrationUrl`, problems }),
        removed: raw.removed === true,
        reason: raw.reason === 'critical-fix' ? 'critical-fix' : 'planned',
        ...optionalDates(raw),
      };
    }
  }
  const key = file.endpointDeprecations !== undefined ? 'endpointDeprecations' : 'endpoints';
  const list = Array.isArray(file[key]) ? (file[key] as unknown[]) : [];
  const endpointDeprecations: EndpointSettings[] = list.flatMap((raw, i) => {
    const sunsetAt = isObject(raw) ? instantMs(raw.sunsetAt) : undefined;
    if (!isObject(raw) || typeof raw.version !== 'string' || typeof raw.method !== 'string') return [];
    if (typeof raw.path !== 'string' || sunsetAt === undefined) return [];
    return [
      {
        version: raw.version,
        method: raw.method.toUpperCase(),
        path: raw.path,
        deprecatedAt: instantMs(raw.deprecatedAt),
        sunsetAt,
        migrationUrl: url({ value: raw.migrationUrl, where: `${key}[${i}].migrationUrl`, problems }),
        ...optionalDates(raw),
      },
    ];
  });
  list.forEach(
    (raw, i) =>
      isObject(raw) && problems.push(...capErrors(raw, `${key}[${i}]`), ...closingErrors(raw, `${key}[${i}]`)),
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// The schema's pattern told most bad URLs already; what it cannot state (a port past 65535) is told here, once.
function url(options: { value: unknown; where: string; problems: string[] }): string | undefined {
  if (typeof options.value !== 'string') return undefined;
  const problem = migrationUrlProblem(options.value, options.where);
  if (problem && !options.problems.some((p) => p.startsWith(`${options.where} `))) options.problems.push(problem);
  return problem ? undefined : options.value;
}

// The cap on extended access and the closing to new clients: absent when unset.
function optionalDates(raw: Record<string, unknown>): { extendedAccessUntil?: number; closedToNewClientsAt?: number } {
  const cap = instantMs(raw.extendedAccessUntil);
  const closed = instantMs(raw.closedToNewClientsAt);
  return {
    ...(cap === undefined ? {} : { extendedAccessUntil: cap }),
    ...(closed === undefined ? {} : { closedToNewClientsAt: closed }),
  };
}
