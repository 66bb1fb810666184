import { DAY_MS, formatDays, monthsToMs } from './durations.ts';
import type { LifecycleVersion } from './schedule.ts';
import { PolicyRule, type PolicyWarning } from './policy-report.ts';
import { formatIsoDate } from '../time/index.ts';

const BREAKING_SPACING_MS = monthsToMs(12);

/** Rule `breaking-spacing`: a warning per close pair, never an error (a shipped release cannot be unshipped). */
export function checkBreakingSpacing(versions: readonly LifecycleVersion[]): PolicyWarning[] {
  const breaking = versions
    .filter((v) => v.breaking !== false && Number.isFinite(v.releasedAt))
    .sort((a, b) => a.releasedAt - b.releasedAt);
  const warnings: PolicyWarning[] = [];
  for (let i = 1; i < breaking.length; i += 1) {
    const [previous, current] = [breaking[i - 1]!, breaking[i]!];
    const gap = current.releasedAt - previous.releasedAt;
    if (gap >= BREAKING_SPACING_MS) continue;
    warnings.push({
      rule: PolicyRule.BreakingSpacing,
      detail:
        `${PolicyRule.BreakingSpacing}: breaking releases should be at least ${formatDays(BREAKING_SPACING_MS)} days apart; ` +
        `${previous.name} (${formatIsoDate(previous.releasedAt)}) and ${current.name} (${formatIsoDate(current.releasedAt)}) ` +
        `are ${formatDays(gap)} days apart.`,
      extensions: { rule: PolicyRule.BreakingSpacing, versions: [previous.name, current.name], gapDays: gap / DAY_MS },
    });
  }
  return warnings;
}
