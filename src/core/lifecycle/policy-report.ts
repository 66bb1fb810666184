import { ErrorCode, VersionaryError } from '../errors/index.ts';

/** Stable ids of the lifecycle policy rules; `docs/lifecycle.md` describes each one. */
export const PolicyRule = {
  NoticePeriod: 'notice-period',
  ConcreteSunset: 'concrete-sunset',
  SunsetOrder: 'sunset-order',
  ReplacementExists: 'replacement-exists',
  VersionKnown: 'version-known',
  LifecycleTransition: 'lifecycle-transition',
  BreakingSpacing: 'breaking-spacing',
  MigrationGuide: 'migration-guide',
  ScheduleInput: 'schedule-input',
  ValidConfig: 'valid-config',
} as const;

/** One of the stable rule ids. */
export type PolicyRule = (typeof PolicyRule)[keyof typeof PolicyRule];

/**
 * A rule that was bent but not broken: reported, never thrown.
 *
 * @example
 * ```ts
 * for (const warning of report.warnings) log.warn(warning.detail);
 * ```
 */
export interface PolicyWarning {
  rule: PolicyRule;
  detail: string;
  extensions: Record<string, unknown>;
}

/** Every violation and warning found by one check, so the caller can report them all at once. */
export interface PolicyReport {
  violations: VersionaryError[];
  warnings: PolicyWarning[];
}

interface CreateViolationOptions {
  code?: ErrorCode;
  rule: PolicyRule;
  /** The message after the rule id, naming the numbers involved. */
  message: string;
  extensions?: Record<string, unknown>;
}

/** A rule violation: its detail starts with the rule id, which `extensions.rule` carries for machines. */
export function createViolation(options: CreateViolationOptions): VersionaryError {
  return new VersionaryError({
    code: options.code ?? ErrorCode.PolicyViolation,
    detail: `${options.rule}: ${options.message}`,
    extensions: { rule: options.rule, ...options.extensions },
  });
}

interface ToPolicyErrorOptions {
  /** Always wrap in this code, even a single violation (config checks use `INVALID_CONFIG`). */
  code?: ErrorCode;
  /** What was checked, for the summary line. */
  subject: string;
}

/** Violations as one error: a lone one as itself, several in `extensions.violations`; none, `undefined`. */
export function toPolicyError(
  violations: readonly VersionaryError[],
  options: ToPolicyErrorOptions,
): VersionaryError | undefined {
  const [first] = violations;
  if (!first) return undefined;
  if (violations.length === 1 && !options.code) return first;
  return new VersionaryError({
    code: options.code ?? ErrorCode.PolicyViolation,
    detail: `${options.subject}: ${violations.length} lifecycle problem(s): ${violations.map((v) => v.detail).join(' | ')}`,
    extensions: { violations: violations.map((v) => ({ code: v.code, detail: v.detail, ...v.extensions })) },
  });
}
