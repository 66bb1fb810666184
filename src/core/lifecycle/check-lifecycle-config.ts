import { ErrorCode, type VersionaryError } from '../errors/index.ts';
import { checkBreakingSpacing } from './breaking-spacing.ts';
import type { LifecycleVersion, Audience } from './schedule.ts';
import { PolicyRule, createViolation, toPolicyError, type PolicyReport, type PolicyWarning } from './policy-report.ts';
import { checkReplacementExists } from './replacement-rule.ts';
import { checkConcreteSunset, checkNoticePeriod, checkSunsetOrder } from './schedule-rules.ts';

/** Options for {@link checkLifecycleConfig}. */
export interface CheckLifecycleConfigOptions {
  versions: readonly LifecycleVersion[];
  /** Defaults to `public`. Typed loosely because it usually comes straight from a config file. */
  audience?: Audience | string;
}

/**
 * Check the whole lifecycle configuration at start: well-formed versions, and every stored
 * schedule against every rule (a removed version only against the replacement and guide rules). Reports all violations and warnings at once; never throws.
 *
 * @example
 * ```ts
 * const report = checkLifecycleConfig({ versions, audience: 'public' });
 * ```
 */
export function checkLifecycleConfig(options: CheckLifecycleConfigOptions): PolicyReport {
  const { versions } = options;
  const violations: Array<VersionaryError | undefined> = [...checkShape(options)];
  const audience: Audience = options.audience === 'enterprise' ? 'enterprise' : 'public';
  for (const version of versions) {
    const { schedule } = version;
    if (!schedule) continue;
    // A version already removed has no notice left to give: its dates are history, not a plan.
    if (!schedule.removed)
      violations.push(
        checkSunsetOrder(schedule),
        checkConcreteSunset({ schedule }),
        checkNoticePeriod({ schedule, audience }),
      );
    violations.push(checkReplacementExists({ version: version.name, versions }), checkMigrationGuide(version));
  }
  return {
    violations: violations.filter((v): v is VersionaryError => v !== undefined),
    warnings: checkBreakingSpacing(versions),
  };
}

/** {@link checkLifecycleConfig}, throwing one `INVALID_CONFIG` error with every violation; returns the warnings. */
export function assertLifecycleConfig(options: CheckLifecycleConfigOptions): PolicyWarning[] {
  const report = checkLifecycleConfig(options);
  const error = toPolicyError(report.violations, { subject: 'lifecycle configuration', code: ErrorCode.InvalidConfig });
  if (error) throw error;
  return report.warnings;
}

/** Rule `migration-guide`: a deprecated version links a migration guide (`migrationUrl`). */
function checkMigrationGuide(version: LifecycleVersion): VersionaryError | undefined {
  if (!version.schedule || (version.migrationUrl ?? '').trim() !== '') return undefined;
  return createViolation({
    rule: PolicyRule.MigrationGuide,
    message: `${version.name} is deprecated but links no migration guide (migrationUrl).`,
    extensions: { version: version.name },
  });
}

function checkShape(options: CheckLifecycleConfigOptions): VersionaryError[] {
  const errors: VersionaryError[] = [];
  const invalid = (message: string, extensions: Record<string, unknown>) =>
    errors.push(createViolation({ code: ErrorCode.InvalidConfig, rule: PolicyRule.ValidConfig, message, extensions }));
  if (options.audience !== undefined && options.audience !== 'public' && options.audience !== 'enterprise') {
    invalid(`audience must be 'public' or 'enterprise'; got ${JSON.stringify(options.audience)}.`, {
      audience: options.audience,
    });
  }
  const seen = new Set<string>();
  for (const version of options.versions) {
    if (seen.has(version.name))
      invalid(`version ${version.name} is declared more than once.`, { version: version.name });
    seen.add(version.name);
    if (!Number.isFinite(version.releasedAt)) {
      invalid(`${version.name} has no valid releasedAt (got ${String(version.releasedAt)}).`, {
        version: version.name,
      });
    }
    if (version.schedule && version.schedule.version !== version.name) {
      invalid(`the schedule under ${version.name} is for ${version.schedule.version}.`, { version: version.name });
    }
  }
  return errors;
}
