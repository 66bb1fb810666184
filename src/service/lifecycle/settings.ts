import {
  checkKnownKeys,
  checkVersionEntry,
  parseElementDeprecations,
  type Audience,
  type DeprecationReason,
  type ElementDeprecation,
} from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import type { DeprecationHeaderStyle } from '../../core/lifecycle/index.ts';
import { DeprecationWarningCode } from '../../http/warnings.ts';
import { migrationUrlProblem } from './migration-url.ts';

/** One version's lifecycle as the config file declares it. */
export interface VersionSettings {
  releasedAt?: number;
  deprecatedAt?: number;
  sunsetAt?: number;
  replacement?: string;
  migrationUrl?: string;
  removed?: boolean;
  reason?: DeprecationReason;
}

/** An endpoint deprecation as the config file declares it. */
export interface EndpointSettings {
  version: string;
  method: string;
  path: string;
  deprecatedAt?: number;
  sunsetAt: number;
  migrationUrl?: string;
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

/** Read the lifecycle keys of the config file, pushing every error found into `errors`. */
export function parseLifecycleSettings(options: {
  file: Record<string, unknown>;
  errors: string[];
}): LifecycleSettings {
  const { file, errors } = options;
  const audience = file.audience ?? 'public';
  if (audience !== 'public' && audience !== 'enterprise')
    errors.push(`audience must be "public" or "enterprise", not ${JSON.stringify(audience)}`);
  const removedStatus = file.removedStatus ?? 410;
  if (removedStatus !== 410 && removedStatus !== 404)
    errors.push(`removedStatus must be 410 or 404, not ${JSON.stringify(removedStatus)}`);
  const style = file.headerStyle ?? 'iso8601';
  if (style !== 'iso8601' && style !== 'rfc' && style !== 'iso')
    errors.push(`headerStyle must be "iso8601" or "rfc", not ${JSON.stringify(style)}`);
  // The library once spelled it `iso`: accepted, so a config written from its docs still starts.
  const warnings =
    style === 'iso'
      ? [
          {
            code: DeprecationWarningCode.HeaderStyleIso,
            detail: 'headerStyle "iso" is deprecated: write "iso8601", which sends the same headers.',
          },
        ]
      : [];
  const date = (value: unknown, where: string): number | undefined => {
    if (value === undefined) return undefined;
    const parsed = typeof value === 'string' ? parseIsoInstant(value) : undefined;
    if (parsed === undefined) errors.push(`${where} must be an ISO 8601 date, not ${JSON.stringify(value)}`);
    return parsed;
  };
  let versions: Record<string, VersionSettings> | undefined;
  const flawed: string[] = [];
  if (file.versions !== undefined) {
    versions = {};
    if (!isObject(file.versions)) errors.push('versions must be an object keyed by version name');
    for (const [name, raw] of Object.entries(isObject(file.versions) ? file.versions : {})) {
      if (!isObject(raw)) {
        errors.push(`versions.${name} must be an object`);
        continue;
      }
      const before = errors.length;
      errors.push(...checkVersionEntry({ entry: raw, where: `versions.${name}` }));
      const at = (key: string) => date(raw[key], `versions.${name}.${key}`);
      const reason = raw.reason ?? 'planned';
      if (reason !== 'planned' && reason !== 'critical-fix')
        errors.push(`versions.${name}.reason must be "planned" or "critical-fix"`);
      versions[name] = {
        releasedAt: at('releasedAt'),
        deprecatedAt: at('deprecatedAt'),
        sunsetAt: at('sunsetAt'),
        replacement: str(raw.replacement),
        migrationUrl: url({ value: raw.migrationUrl, where: `versions.${name}.migrationUrl`, errors }),
        removed: raw.removed === true,
        reason: reason as DeprecationReason,
      };
      if (errors.length > before) flawed.push(name);
    }
  }
  const endpointDeprecations: EndpointSettings[] = [];
  const list = file.endpointDeprecations ?? [];
  if (!Array.isArray(list)) errors.push('endpointDeprecations must be an array');
  (Array.isArray(list) ? list : []).forEach((raw: unknown, i) => {
    const where = `endpointDeprecations[${i}]`;
    if (
      !isObject(raw) ||
      typeof raw.version !== 'string' ||
      typeof raw.method !== 'string' ||
      typeof raw.path !== 'string'
    ) {
      return void errors.push(`${where} needs version, method and path strings`);
    }
    errors.push(...checkKnownKeys({ object: raw, known: endpointKeys, where, what: 'an endpoint deprecation' }));
    const sunsetAt = date(raw.sunsetAt, `${where}.sunsetAt`);
    if (sunsetAt === undefined) return void errors.push(`${where}.sunsetAt is required: a concrete sunset date`);
    endpointDeprecations.push({
      version: raw.version,
      method: raw.method.toUpperCase(),
      path: raw.path,
      deprecatedAt: date(raw.deprecatedAt, `${where}.deprecatedAt`),
      sunsetAt,
      migrationUrl: url({ value: raw.migrationUrl, where: `${where}.migrationUrl`, errors }),
    });
  });
  const elementDeprecations = parseElementDeprecations(file, errors);
  return {
    ...(elementDeprecations.length > 0 ? { elementDeprecations } : {}),
    audience: audience === 'enterprise' ? 'enterprise' : 'public',
    removedStatus: removedStatus === 404 ? 404 : 410,
    headerStyle: style === 'rfc' ? 'rfc' : 'iso8601',
    ...(versions ? { versions } : {}),
    endpointDeprecations,
    ...(flawed.length > 0 ? { flawed } : {}),
    warnings,
  };
}

const endpointKeys = ['version', 'method', 'path', 'deprecatedAt', 'sunsetAt', 'migrationUrl'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function url(options: { value: unknown; where: string; errors: string[] }): string | undefined {
  if (options.value === undefined) return undefined;
  const problem =
    typeof options.value === 'string'
      ? migrationUrlProblem(options.value, options.where)
      : `${options.where} must be a string`;
  if (problem) options.errors.push(problem);
  return problem ? undefined : (options.value as string);
}
