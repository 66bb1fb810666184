import { settingsSection } from '../host/config.ts';
import { unknownKey } from '../../core/text/index.ts';
/** The `usage` part of the config file, parsed. */
export interface UsageSettings {
  /**
   * Days a raw event (one row per call) is kept for `GET /admin/v1/versions/{v}/calls`; 0 keeps
   * none. Summaries read the rollups, which are kept whatever this says.
   */
  rawRetentionDays: number;
  /**
   * Days the hourly counts of calls to every version per operation and client are kept (for
   * `GET /admin/v1/usage/operations` and `versionary diff`); 0 counts none.
   */
  operationRetentionDays: number;
  /** How often the in-memory operation counts are written, in seconds. */
  operationFlushSeconds: number;
  /**
   * How often the buffered per-client usage (calls to deprecated versions, endpoints and elements)
   * is written, in seconds. A crash loses at most this much; a graceful stop loses nothing.
   */
  flushSeconds: number;
}

/**
 * Raw events for a week by default: enough to look into yesterday's calls one by one, bounded
 * on a busy API (the rollups carry the long view). Operation counts for 90 days: a quarter, long
 * enough to see a monthly or quarterly job call an operation; a few rows per operation and client
 * and hour, so cheap to keep. Written every 5 seconds: a few writes a minute per instance.
 */
const defaultUsageSettings: UsageSettings = {
  rawRetentionDays: 7,
  operationRetentionDays: 90,
  operationFlushSeconds: 5,
  flushSeconds: 1,
};

const bounds = {
  rawRetentionDays: { min: 0, max: 3650, what: 'a whole number of days' },
  operationRetentionDays: { min: 0, max: 3650, what: 'a whole number of days' },
  operationFlushSeconds: { min: 1, max: 300, what: 'a whole number of seconds' },
  flushSeconds: { min: 1, max: 300, what: 'a whole number of seconds' },
} as const;
const keys = Object.keys(bounds) as Array<keyof UsageSettings>;

/**
 * Read `usage` from the config file (`{"usage": {"rawRetentionDays": 7, "operationRetentionDays": 90}}`),
 * pushing every error into `errors`.
 */
function parseUsageSettings(options: { file: Record<string, unknown>; errors: string[] }): UsageSettings {
  const raw = options.file.usage;
  if (raw === undefined) return { ...defaultUsageSettings };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    options.errors.push(`usage must be an object such as {"rawRetentionDays": 7}, not ${JSON.stringify(raw)}`);
    return { ...defaultUsageSettings };
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!(keys as string[]).includes(key)) options.errors.push(unknownKey('usage', key, keys));
  const settings = { ...defaultUsageSettings };
  for (const key of keys) {
    const value = record[key] ?? defaultUsageSettings[key];
    const { min, max, what } = bounds[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      options.errors.push(`usage.${key} must be ${what} from ${min} to ${max}, not ${JSON.stringify(value)}`);
    else settings[key] = value;
  }
  return settings;
}

/** The usage part's section of the config file. */
export const usageSection = settingsSection('usage', { keys: ['usage'], parse: parseUsageSettings });
