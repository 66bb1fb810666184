import { unknownKey } from '../../core/text/index.ts';
/** The `usage` part of the config file, parsed. */
export interface UsageSettings {
  /**
   * Days a raw event (one row per call) is kept for `GET /admin/v1/versions/{v}/calls`; 0 keeps
   * none. Summaries read the rollups, which are kept whatever this says.
   */
  rawRetentionDays: number;
}

/**
 * Raw events for a week by default: enough to look into yesterday's calls one by one, bounded
 * on a busy API (the rollups carry the long view).
 */
export const defaultUsageSettings: UsageSettings = { rawRetentionDays: 7 };

/**
 * Read `usage` from the config file (`{"usage": {"rawRetentionDays": 7}}`), pushing every error
 * into `errors`.
 */
export function parseUsageSettings(options: { file: Record<string, unknown>; errors: string[] }): UsageSettings {
  const raw = options.file.usage;
  if (raw === undefined) return { ...defaultUsageSettings };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    options.errors.push(`usage must be an object such as {"rawRetentionDays": 7}, not ${JSON.stringify(raw)}`);
    return { ...defaultUsageSettings };
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (key !== 'rawRetentionDays') options.errors.push(unknownKey('usage', key, ['rawRetentionDays']));
  const days = record.rawRetentionDays ?? defaultUsageSettings.rawRetentionDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > 3650) {
    options.errors.push(
      `usage.rawRetentionDays must be a whole number of days from 0 to 3650, not ${JSON.stringify(days)}`,
    );
    return { ...defaultUsageSettings };
  }
  return { rawRetentionDays: days };
}
