import type { DecisionTableSource } from '../rulebook/table.ts';
import type { Clock } from '../clock/index.ts';
import { assertLifecycleConfig } from './check-lifecycle-config.ts';
import type { DeprecationHeaderStyle } from './deprecation-headers.ts';
import { parseElementDeprecations } from './element-config.ts';
import type { ElementDeprecation } from './element-deprecation.ts';
import { undatedLifecycleDocument, type LifecycleDocument } from './lifecycle-document.ts';
import type { LifecycleVersion, Audience, DeprecationSchedule } from './schedule.ts';
import { evaluateVerdict, type LifecycleVerdict, type VerdictCandidate } from './lifecycle-verdict.ts';
import type { PolicyWarning } from './policy-report.ts';
import { checkLifecycleRules, instantMs } from './lifecycle-rules.ts';
import { lifecycleShapeErrors, type LifecycleConfig } from './lifecycle-schema.ts';
import { declaredOrder, orderReleases } from './release-order.ts';
import { nextReplacement } from './replacement-rule.ts';
import { versionListHeaders } from './version-list-headers.ts';

export type {
  EndpointLifecycleConfig,
  InstantInput,
  LifecycleConfig,
  VersionLifecycleConfig,
} from './lifecycle-schema.ts';

/**
 * Where a Versionary API learns the lifecycle of each version and endpoint: a {@link LifecycleConfig}
 * through {@link createConfigLifecycle}, or the reference service's storage-backed runtime.
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
  /**
   * A `Link` value the responses that use deprecated elements carry last, when the source serves
   * a deprecation manifest (the loop's runtime does: `</api/deprecations>; rel="deprecation"; …`).
   */
  manifestLink?: string;
  /**
   * The verdict for one client, asked only when the shared one is `perClient`: its own with extended
   * access; rejects with a 403 when the subject is closed to new clients and this client (undefined:
   * unauthenticated, so new) had not called it.
   */
  clientVerdict?(
    key: { version: string; method: string; path: string },
    clientId: string | undefined,
    shared: LifecycleVerdict,
  ): LifecycleVerdict | Promise<LifecycleVerdict>;
  /**
   * Whether a deprecated element a request uses has per-client rules now (extended access past its
   * sunset, or its closing to new clients): only then is {@link clientElements} asked.
   */
  elementTouches?(element: ElementDeprecation): boolean;
  /**
   * The elements a request uses as this client sees them (its extended access as `sunsetAt`); rejects
   * with the 403 when one is closed to new clients and this client had not used it.
   */
  clientElements?(
    used: readonly ElementDeprecation[],
    clientId: string | undefined,
    guideOf: (element: ElementDeprecation) => string,
  ): Promise<readonly ElementDeprecation[]>;
  /** Whether a key has no lifecycle at all, whatever the clock says: only {@link onChange} can alter it. */
  unscheduled?(key: { version: string; method: string; path: string }): boolean;
  /** Call `listener` after each change of the state that {@link unscheduled} reads. */
  onChange?(listener: () => void): void;
  /**
   * The compiled decision table of this lifecycle (the loop's): when given, every request of a
   * version's routes is decided by core's `decide` on it, and {@link clientVerdict} is not asked.
   */
  decisionTable?: DecisionTableSource;
}

/** Options for {@link createConfigLifecycle}. */
export interface ConfigLifecycleOptions {
  config: LifecycleConfig;
  clock: Clock;
  prefix: string;
  /** The versions that have code, oldest first. */
  versions: readonly string[];
}

/**
 * Every problem with a lifecycle config, as sentences: its shape, then the rules across fields;
 * the policy rules (notice periods, guides) are {@link createConfigLifecycle}'s.
 *
 * @example
 * ```ts
 * checkLifecycleConfigShape({ config: { versions: { v9: { sunsetAt: 'soon' } } }, versions: ['v1'] });
 * // ['lifecycle.versions.v9.sunsetAt must be an ISO 8601 date or epoch milliseconds, not "soon"', ...]
 * ```
 */
export function checkLifecycleConfigShape(options: { config: unknown; versions: readonly string[] }): string[] {
  const { config } = options;
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    return ['lifecycle must be an object (a LifecycleConfig) or a lifecycle source with a verdict() method'];
  return [
    ...lifecycleShapeErrors(config, 'lifecycle'),
    ...checkLifecycleRules({ config, where: 'lifecycle', bundle: options.versions }),
  ];
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
  // `endpoints` is the former name of `endpointDeprecations` (both at once is refused by the rules).
  const endpoints = config.endpointDeprecations ?? config.endpoints ?? [];
  const migrationUrl = (name: string) => configured[name]?.migrationUrl ?? `${prefix}/versions`;
  const schedules = new Map<string, DeprecationSchedule>();
  for (const [name, v] of Object.entries(configured)) {
    const sunsetAt = instantMs(v.sunsetAt);
    if (sunsetAt === undefined && v.removed !== true) continue;
    const deprecatedAt = instantMs(v.deprecatedAt) ?? sunsetAt ?? 0;
    schedules.set(name, {
      version: name,
      deprecatedAt,
      sunsetAt: sunsetAt ?? deprecatedAt,
      removed: v.removed === true,
      reason: v.reason ?? 'planned',
    });
  }
  const { releases } = orderReleases(
    names.map((name) => ({ name, releasedAt: instantMs(configured[name]?.releasedAt) })),
  );
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
  const cache = new Map<string, { verdict: LifecycleVerdict; until: number }>();
  const elements = parseElementDeprecations(config);
  return {
    warnings,
    verdict(key) {
      const id = `${key.version} ${key.method} ${key.path}`;
      const hit = cache.get(id);
      if (hit && clock.now() < hit.until) return hit.verdict;
      const candidates: VerdictCandidate[] = [];
      const own = schedules.get(key.version);
      if (own) candidates.push({ schedule: own, migrationUrl: migrationUrl(key.version) });
      for (const e of endpoints) {
        if (e.version !== key.version || e.method.toUpperCase() !== key.method || e.path !== key.path) continue;
        candidates.push({
          schedule: {
            version: key.version,
            deprecatedAt: instantMs(e.deprecatedAt)!,
            sunsetAt: instantMs(e.sunsetAt)!,
            removed: false,
            reason: 'planned',
          },
          migrationUrl: e.migrationUrl ?? migrationUrl(key.version),
          subject: `${e.method.toUpperCase()} ${e.path} in ${key.version}`,
        });
      }
      const replacement = nextReplacement(versions, key.version);
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
    document: () => undatedLifecycleDocument({ versions, clock, audience: config.audience ?? 'public', undated }),
    versions: () => versions,
    // Checked whole by checkLifecycleConfigShape before this runs: no error is left to report.
    elements: () => elements,
    headerStyle: config.headerStyle ?? 'iso8601',
    audience: config.audience ?? 'public',
    migrationUrl,
  };
}
