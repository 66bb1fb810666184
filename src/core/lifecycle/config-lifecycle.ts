import type { Clock } from '../clock/index.ts';
import { assertLifecycleConfig } from './check-lifecycle-config.ts';
import { checkKnownKeys, checkVersionEntry } from './config-keys.ts';
import type { DeprecationHeaderStyle } from './deprecation-headers.ts';
import { parseElementDeprecations } from './element-config.ts';
import type { ElementDeprecation, FieldDeprecationConfig, ParameterDeprecationConfig } from './element-deprecation.ts';
import { buildLifecycleDocument, type LifecycleDocument } from './lifecycle-document.ts';
import type { LifecycleVersion } from './lifecycle-version.ts';
import { evaluateVerdict, type LifecycleVerdict, type VerdictCandidate } from './lifecycle-verdict.ts';
import type { PolicyWarning } from './policy-report.ts';
import { declaredOrder, orderReleases } from './release-order.ts';
import type { Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { parseIsoInstant } from '../time/index.ts';
import { versionListHeaders } from './version-list-headers.ts';

/**
 * An instant: an ISO 8601 string (`2026-07-01` or with a time and zone) or epoch milliseconds.
 *
 * @example
 * ```ts
 * const sunset: InstantInput = '2027-06-30';
 * ```
 */
export type InstantInput = string | number;

/**
 * One version's lifecycle in a {@link LifecycleConfig}. A version with a `sunsetAt` is deprecated;
 * after the sunset (or with `removed: true`) its requests answer 410.
 *
 * @example
 * ```ts
 * const v1: VersionLifecycleConfig = { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: 'https://example.com/v1-to-v2' };
 * ```
 */
export interface VersionLifecycleConfig {
  releasedAt?: InstantInput;
  deprecatedAt?: InstantInput;
  sunsetAt?: InstantInput;
  removed?: boolean;
  /** The version clients should move to; defaults to the newest current version after it. */
  replacement?: string;
  /** The migration guide, linked as `rel="deprecation"`; required once deprecated. */
  migrationUrl?: string;
  reason?: DeprecationReason;
}

/**
 * A deprecated endpoint within a still-supported version.
 *
 * @example
 * ```ts
 * const e: EndpointLifecycleConfig = { version: 'v2', method: 'GET', path: '/books/{id}/summary', deprecatedAt: '2026-09-01', sunsetAt: '2027-09-01' };
 * ```
 */
export interface EndpointLifecycleConfig {
  version: string;
  method: string;
  /** Route template below the version prefix, e.g. `/books/{id}`. */
  path: string;
  deprecatedAt: InstantInput;
  sunsetAt: InstantInput;
  migrationUrl?: string;
}

/**
 * A lifecycle declared in code or a config file, evaluated with the core lifecycle rules.
 *
 * @example
 * ```ts
 * const lifecycle: LifecycleConfig = { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: '/docs/v1-to-v2' } } };
 * ```
 */
export interface LifecycleConfig {
  versions?: Record<string, VersionLifecycleConfig>;
  endpoints?: EndpointLifecycleConfig[];
  /** Fields deprecated within a version that stays active (`docs/api.md#deprecate-a-field-safely`). */
  fieldDeprecations?: FieldDeprecationConfig[];
  /** Query parameters deprecated within a version that stays active. */
  parameterDeprecations?: ParameterDeprecationConfig[];
  /** `iso8601` (default) or `rfc` (RFC 9745 `@seconds` and RFC 8594 HTTP-date); `iso` is its deprecated spelling. */
  headerStyle?: DeprecationHeaderStyle;
  removedStatus?: 410 | 404;
  audience?: Audience;
}

/**
 * Where a Versionary API learns the lifecycle of each version and endpoint: a {@link LifecycleConfig}
 * through {@link createConfigLifecycle}, or the reference service's storage-backed runtime.
 *
 * @example
 * ```ts
 * const source: LifecycleSource = createConfigLifecycle({ config, clock, prefix: '/api', versions: ['v1', 'v2'] });
 * ```
 */
export interface LifecycleSource {
  verdict(key: { version: string; method: string; path: string }): LifecycleVerdict;
  /** `api-supported-versions` and `api-deprecated-versions`, sent on every response. */
  listHeaders?(): Record<string, string>;
  /** The machine-readable lifecycle document served at `<prefix>/versions`. */
  document?(): LifecycleDocument;
  /** Every version the lifecycle knows, including removed ones that no longer have code. */
  versions?(): LifecycleVersion[];
  /** Fields and query parameters deprecated within a version: signalled to the requests that use them. */
  elements?(): readonly ElementDeprecation[];
  /** Whose notice periods the element deprecations are checked against (`public` by default). */
  audience?: Audience;
  /** The header style of the element deprecations' headers (`iso8601` by default). */
  headerStyle?: DeprecationHeaderStyle;
  /** The migration guide of a version, linked by its elements that name none of their own. */
  migrationUrl?(version: string): string;
}

/**
 * Options for {@link createConfigLifecycle}.
 *
 * @example
 * ```ts
 * const options: ConfigLifecycleOptions = { config, clock: { now: Date.now }, prefix: '/api', versions: ['v1', 'v2'] };
 * ```
 */
export interface ConfigLifecycleOptions {
  config: LifecycleConfig;
  clock: Clock;
  prefix: string;
  /** The versions that have code, oldest first. */
  versions: readonly string[];
}

const configKeys = [
  'versions',
  'endpoints',
  'fieldDeprecations',
  'parameterDeprecations',
  'headerStyle',
  'removedStatus',
  'audience',
];
const endpointKeys = ['version', 'method', 'path', 'deprecatedAt', 'sunsetAt', 'migrationUrl'];

/**
 * Every problem with a lifecycle config, as readable sentences (empty when it is valid). The
 * policy rules (notice periods, guides, ordering) are checked by {@link createConfigLifecycle}.
 *
 * @example
 * ```ts
 * checkLifecycleConfigShape({ config: { versions: { v9: { sunsetAt: 'soon' } } }, versions: ['v1'] });
 * // ['lifecycle.versions.v9.sunsetAt must be an ISO 8601 date or epoch milliseconds, not "soon"', ...]
 * ```
 */
export function checkLifecycleConfigShape(options: { config: unknown; versions: readonly string[] }): string[] {
  const errors: string[] = [];
  const { config } = options;
  if (!isObject(config))
    return ['lifecycle must be an object (a LifecycleConfig) or a lifecycle source with a verdict() method'];
  errors.push(...checkKnownKeys({ object: config, known: configKeys, where: 'lifecycle', what: 'a lifecycle config' }));
  const instant = (value: unknown, where: string, required = false): void => {
    if (value === undefined) {
      if (required) errors.push(`${where} is required`);
      return;
    }
    if (toInstant(value) === undefined)
      errors.push(`${where} must be an ISO 8601 date or epoch milliseconds, not ${JSON.stringify(value)}`);
  };
  if (config.versions !== undefined && !isObject(config.versions))
    errors.push('lifecycle.versions must be an object keyed by version name');
  for (const [name, raw] of Object.entries(isObject(config.versions) ? config.versions : {})) {
    const where = `lifecycle.versions.${name}`;
    if (!isObject(raw)) {
      errors.push(`${where} must be an object`);
      continue;
    }
    errors.push(...checkVersionEntry({ entry: raw, where }));
    for (const key of ['releasedAt', 'deprecatedAt', 'sunsetAt']) instant(raw[key], `${where}.${key}`);
    if (raw.sunsetAt !== undefined && raw.deprecatedAt === undefined)
      errors.push(`${where}.deprecatedAt is required with a sunsetAt`);
    if (raw.removed !== undefined && typeof raw.removed !== 'boolean')
      errors.push(`${where}.removed must be a boolean`);
    if (!options.versions.includes(name) && raw.removed !== true && raw.sunsetAt === undefined) {
      errors.push(
        `${where}: ${name} has no code in the version bundle (${options.versions.join(', ')}); only a removed version (removed: true or a sunsetAt) may be listed without code`,
      );
    }
    for (const key of ['replacement', 'migrationUrl'])
      if (raw[key] !== undefined && typeof raw[key] !== 'string') errors.push(`${where}.${key} must be a string`);
    if (raw.reason !== undefined && raw.reason !== 'planned' && raw.reason !== 'critical-fix')
      errors.push(`${where}.reason must be "planned" or "critical-fix"`);
  }
  if (isObject(config.versions)) {
    const dated = Object.entries(config.versions).map(([name, raw]) => ({
      name,
      releasedAt: isObject(raw) ? toInstant(raw.releasedAt) : undefined,
    }));
    const order = declaredOrder({ configured: dated.map((v) => v.name), bundle: options.versions });
    errors.push(
      ...orderReleases(order.map((name) => dated.find((v) => v.name === name) ?? { name })).problems.map(
        (p) => `lifecycle.versions: ${p}`,
      ),
    );
  }
  if (config.endpoints !== undefined && !Array.isArray(config.endpoints))
    errors.push('lifecycle.endpoints must be an array');
  (Array.isArray(config.endpoints) ? config.endpoints : []).forEach((raw: unknown, i) => {
    const where = `lifecycle.endpoints[${i}]`;
    if (
      !isObject(raw) ||
      typeof raw.version !== 'string' ||
      typeof raw.method !== 'string' ||
      typeof raw.path !== 'string'
    ) {
      errors.push(`${where} needs version, method and path strings`);
      return;
    }
    errors.push(...checkKnownKeys({ object: raw, known: endpointKeys, where, what: 'an endpoint deprecation' }));
    if (!options.versions.includes(raw.version))
      errors.push(
        `${where}.version ${JSON.stringify(raw.version)} is not a version of the bundle (${options.versions.join(', ')})`,
      );
    instant(raw.deprecatedAt, `${where}.deprecatedAt`, true);
    instant(raw.sunsetAt, `${where}.sunsetAt`, true);
  });
  const elementErrors: string[] = [];
  parseElementDeprecations(config, elementErrors);
  errors.push(...elementErrors.map((e) => `lifecycle.${e}`));
  // `iso` is the deprecated spelling of `iso8601`: accepted, and the plugin warns about it.
  if (config.headerStyle !== undefined && !['iso8601', 'rfc', 'iso'].includes(config.headerStyle as string)) {
    errors.push(`lifecycle.headerStyle must be "iso8601" or "rfc", not ${JSON.stringify(config.headerStyle)}`);
  }
  if (config.removedStatus !== undefined && config.removedStatus !== 410 && config.removedStatus !== 404)
    errors.push(`lifecycle.removedStatus must be 410 or 404, not ${JSON.stringify(config.removedStatus)}`);
  if (config.audience !== undefined && config.audience !== 'public' && config.audience !== 'enterprise')
    errors.push(`lifecycle.audience must be "public" or "enterprise", not ${JSON.stringify(config.audience)}`);
  return errors;
}

/**
 * A {@link LifecycleSource} evaluated from a plain config and a clock: the same rules, headers
 * and 410s as the reference service, without storage. Throws a `config.invalid` error listing
 * every policy violation (for example a notice period that is too short).
 *
 * @example
 * ```ts
 * const lifecycle = createConfigLifecycle({ config, clock: { now: Date.now }, prefix: '/api', versions: ['v1', 'v2'] });
 * lifecycle.verdict({ version: 'v1', method: 'GET', path: '/books' }).headers.Sunset;
 * ```
 */
export function createConfigLifecycle(
  options: ConfigLifecycleOptions,
): LifecycleSource & { warnings: PolicyWarning[] } {
  const { config, clock, prefix } = options;
  const configured = config.versions ?? {};
  const names = declaredOrder({ configured: Object.keys(configured), bundle: options.versions });
  const at = (value: InstantInput | undefined): number | undefined =>
    value === undefined ? undefined : toInstant(value);
  const migrationUrl = (name: string) => configured[name]?.migrationUrl ?? `${prefix}/versions`;
  const schedules = new Map<string, DeprecationSchedule>();
  for (const [name, v] of Object.entries(configured)) {
    const sunsetAt = at(v.sunsetAt);
    if (sunsetAt === undefined && v.removed !== true) continue;
    const deprecatedAt = at(v.deprecatedAt) ?? sunsetAt ?? 0;
    schedules.set(name, {
      version: name,
      deprecatedAt,
      sunsetAt: sunsetAt ?? deprecatedAt,
      removed: v.removed === true,
      reason: v.reason ?? 'planned',
    });
  }
  const { releases } = orderReleases(names.map((name) => ({ name, releasedAt: at(configured[name]?.releasedAt) })));
  const undated = new Set(releases.filter((r) => !r.declared).map((r) => r.name));
  const versions: LifecycleVersion[] = releases
    .map(({ name, releasedAt }) => {
      const replacement = configured[name]?.replacement;
      const schedule = schedules.get(name);
      return {
        name,
        releasedAt,
        ...(schedule ? { schedule } : {}),
        ...(replacement ? { replacement } : {}),
        migrationUrl: migrationUrl(name),
        openapiUrl: `${prefix}/${name}/openapi.json`,
      };
    })
    .sort((a, b) => a.releasedAt - b.releasedAt);
  const warnings = assertLifecycleConfig({ versions, audience: config.audience ?? 'public' });
  const replacementOf = (name: string): string | undefined => {
    const index = versions.findIndex((v) => v.name === name);
    return versions[index]?.replacement ?? versions.slice(index + 1).find((v) => !v.schedule)?.name;
  };
  const cache = new Map<string, { verdict: LifecycleVerdict; until: number }>();
  const elements = parseElementDeprecations(config, []);
  return {
    warnings,
    verdict(key) {
      const id = `${key.version} ${key.method} ${key.path}`;
      const hit = cache.get(id);
      if (hit && clock.now() < hit.until) return hit.verdict;
      const candidates: VerdictCandidate[] = [];
      const own = schedules.get(key.version);
      if (own) candidates.push({ schedule: own, migrationUrl: migrationUrl(key.version) });
      for (const e of config.endpoints ?? []) {
        if (e.version !== key.version || e.method.toUpperCase() !== key.method || e.path !== key.path) continue;
        candidates.push({
          schedule: {
            version: key.version,
            deprecatedAt: at(e.deprecatedAt)!,
            sunsetAt: at(e.sunsetAt)!,
            removed: false,
            reason: 'planned',
          },
          migrationUrl: e.migrationUrl ?? migrationUrl(key.version),
          subject: `${e.method.toUpperCase()} ${e.path} in ${key.version}`,
        });
      }
      const replacement = replacementOf(key.version);
      const fresh = evaluateVerdict({
        version: key.version,
        candidates,
        clock,
        prefix,
        style: config.headerStyle ?? 'iso8601',
        removedStatus: config.removedStatus ?? 410,
        ...(replacement ? { replacement } : {}),
      });
      cache.set(id, fresh);
      return fresh.verdict;
    },
    listHeaders: () => versionListHeaders({ versions, clock }).headers,
    document: () => {
      const document = buildLifecycleDocument({ versions, clock, audience: config.audience ?? 'public' });
      // A stand-in date only keeps the declared order: a client is never shown one.
      return {
        ...document,
        versions: document.versions.map((v) => (undated.has(v.name) ? { ...v, releasedAt: null } : v)),
      };
    },
    versions: () => versions,
    // Checked whole by checkLifecycleConfigShape before this runs: no error is left to report.
    elements: () => elements,
    headerStyle: config.headerStyle ?? 'iso8601',
    audience: config.audience ?? 'public',
    migrationUrl,
  };
}

function toInstant(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' ? parseIsoInstant(value) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
