import { ErrorCode, type VersionaryError } from '../errors/index.ts';
import type { LifecycleVersion } from './schedule.ts';
import { PolicyRule, createViolation } from './policy-report.ts';

/** Options for {@link resolveReplacement} and {@link checkReplacementExists}. */
export interface ReplacementOptions {
  /** The version to be deprecated. */
  version: string;
  /** Every published version. */
  versions: readonly LifecycleVersion[];
  /** An explicit replacement; otherwise the version's own `replacement`, else the newest current newer version. */
  replacement?: string;
}

/** The version that replaces `version`: one released later and not itself deprecated. */
export function resolveReplacement(options: ReplacementOptions): string | undefined {
  const target = options.versions.find((v) => v.name === options.version);
  if (!target) return undefined;
  const named = options.replacement ?? target.replacement;
  const candidates = options.versions.filter((v) => v.releasedAt > target.releasedAt && !v.schedule);
  if (named !== undefined) return candidates.some((v) => v.name === named) ? named : undefined;
  return candidates.reduce<LifecycleVersion | undefined>(
    (newest, v) => (!newest || v.releasedAt > newest.releasedAt ? v : newest),
    undefined,
  )?.name;
}

/** Where a version's clients are sent: its own `replacement`, else the next version released after it and not deprecated. */
export function nextReplacement(versions: readonly LifecycleVersion[], name: string): string | undefined {
  const index = versions.findIndex((v) => v.name === name);
  return versions[index]?.replacement ?? versions.slice(index + 1).find((v) => !v.schedule)?.name;
}

/** Rule `version-known` (`VERSION_UNKNOWN`): only a published version can be deprecated. */
export function checkVersionKnown(options: ReplacementOptions): VersionaryError | undefined {
  if (options.versions.some((v) => v.name === options.version)) return undefined;
  return createViolation({
    code: ErrorCode.VersionUnknown,
    rule: PolicyRule.VersionKnown,
    message: `${options.version} is not a published version; published: ${options.versions.map((v) => v.name).join(', ') || 'none'}.`,
    extensions: { version: options.version, supportedVersions: options.versions.map((v) => v.name) },
  });
}

/** Rule `replacement-exists`: a newer, non-deprecated version to move to (the named one, if any). */
export function checkReplacementExists(options: ReplacementOptions): VersionaryError | undefined {
  const target = options.versions.find((v) => v.name === options.version);
  if (!target || resolveReplacement(options) !== undefined) return undefined;
  const named = options.replacement ?? target.replacement;
  return createViolation({
    code: ErrorCode.NoReplacement,
    rule: PolicyRule.ReplacementExists,
    message:
      named === undefined
        ? `${target.name} can be deprecated only once a newer, non-deprecated version exists; there is none.`
        : `${target.name} names ${named} as its replacement, but ${whyNot({ named, target, versions: options.versions })}.`,
    extensions: { version: target.name, replacement: named },
  });
}

function whyNot(options: { named: string; target: LifecycleVersion; versions: readonly LifecycleVersion[] }): string {
  const candidate = options.versions.find((v) => v.name === options.named);
  if (!candidate) return `${options.named} is not a published version`;
  if (candidate.releasedAt <= options.target.releasedAt) return `${options.named} is not newer`;
  return `${options.named} is itself deprecated`;
}
