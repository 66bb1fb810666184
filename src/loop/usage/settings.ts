import { Type, type Static } from '@sinclair/typebox';
import { createSchemaValidator } from '../../core/config/index.ts';
import { unknownKey } from '../../core/text/index.ts';
import { settingsSection } from '../host/config.ts';

const whole = (unit: 'days' | 'seconds', min: number, max: number) =>
  Type.Integer({ minimum: min, maximum: max, errorText: `must be a whole number of ${unit} from ${min} to ${max}` });

/** The `usage` section of the config file: its type and its checks, every mistake at once. */
const UsageSectionSchema = Type.Object(
  {
    /**
     * Days a raw event (one row per call) is kept for `GET /admin/v1/versions/{v}/calls`; 0 keeps
     * none. Summaries read the rollups, which are kept whatever this says.
     */
    rawRetentionDays: Type.Optional(whole('days', 0, 3650)),
    /**
     * Days the hourly counts of calls to every version per operation and client are kept (for
     * `GET /admin/v1/usage/operations` and `versionary diff`); 0 counts none.
     */
    operationRetentionDays: Type.Optional(whole('days', 0, 3650)),
    /** How often the in-memory operation counts are written, in seconds. */
    operationFlushSeconds: Type.Optional(whole('seconds', 1, 300)),
    /**
     * How often the buffered per-client usage (calls to deprecated versions, endpoints and elements)
     * is written, in seconds. A crash loses at most this much; a graceful stop loses nothing.
     */
    flushSeconds: Type.Optional(whole('seconds', 1, 300)),
  },
  { additionalProperties: false, errorText: 'must be an object such as {"rawRetentionDays": 7}' },
);

export type UsageSettings = Required<Static<typeof UsageSectionSchema>>;

const validator = createSchemaValidator(UsageSectionSchema, {
  unknownKey: ({ where, key, known }) => unknownKey(where, key, known),
});

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

/**
 * Read `usage` from the config file (`{"usage": {"rawRetentionDays": 7, "operationRetentionDays": 90}}`),
 * pushing every error into `errors`.
 */
function parseUsageSettings(options: { file: Record<string, unknown>; errors: string[] }): UsageSettings {
  const { usage: raw = {} } = options.file;
  const errors = validator.errors(raw, 'usage');
  options.errors.push(...errors);
  return errors.length === 0 && validator.check(raw) ? { ...defaultUsageSettings, ...raw } : defaultUsageSettings;
}

/** The usage part's section of the config file. */
export const usageSection = settingsSection('usage', { keys: ['usage'], parse: parseUsageSettings });
