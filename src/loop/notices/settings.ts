import { settingsSection } from '../host/config.ts';
import { defaultNoticeSettings, type Brownout, type NoticeSettings } from '../../core/notices/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { unknownKey } from '../../core/text/index.ts';
import { isPlainObject } from '../../core/versions/index.ts';

/** The notices feature's settings, from the config file's `notices` and `publicUrl` keys. */
export interface NoticesSettings extends NoticeSettings {
  /** Seconds between worker passes; 0 turns the timer off (passes then run only on request). */
  intervalSeconds: number;
  /** Delivery attempts before a transient failure becomes final. */
  maxAttempts: number;
  /** First retry delay; each further one doubles, with jitter. */
  retryBaseSeconds: number;
  /** Absolute base of links in notices, e.g. `https://api.example.com`. */
  publicUrl: string;
  brownouts: Brownout[];
}

const keys = [
  'intervalSeconds',
  'reminderDays',
  'clearDays',
  'lookbackDays',
  'brownoutNoticeDays',
  'maxAttempts',
  'retryBaseSeconds',
  'brownouts',
];

/** @internal exported for the tests */
export function parseNoticesSettings(options: { file: Record<string, unknown>; errors: string[] }): NoticesSettings {
  const { errors } = options;
  const raw = options.file.notices ?? {};
  const n = isPlainObject(raw) ? raw : (errors.push('notices must be an object'), {} as Record<string, unknown>);
  for (const key of Object.keys(n)) if (!keys.includes(key)) errors.push(unknownKey('notices', key, keys));
  const int = (key: string, fallback: number, [min, max]: [number, number]): number => {
    const value = n[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      errors.push(`notices.${key} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const reminderDays = n.reminderDays ?? defaultNoticeSettings.reminderDays;
  const remindersOk =
    Array.isArray(reminderDays) &&
    reminderDays.length <= 20 &&
    reminderDays.every((d) => Number.isInteger(d) && d >= 1 && d <= 3650);
  if (!remindersOk) errors.push('notices.reminderDays must be a list of at most 20 whole days from 1 to 3650');
  const publicUrl = options.file.publicUrl ?? 'http://127.0.0.1:3000';
  let base = 'http://127.0.0.1:3000';
  if (typeof publicUrl !== 'string' || !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(publicUrl))
    errors.push('publicUrl must be an absolute http(s) URL');
  else base = publicUrl.replace(/\/+$/, '');
  return {
    intervalSeconds: int('intervalSeconds', 60, [0, 86_400]),
    reminderDays: remindersOk ? [...new Set(reminderDays as number[])] : [...defaultNoticeSettings.reminderDays],
    clearDays: int('clearDays', defaultNoticeSettings.clearDays, [1, 365]),
    lookbackDays: int('lookbackDays', defaultNoticeSettings.lookbackDays, [1, 730]),
    brownoutNoticeDays: int('brownoutNoticeDays', defaultNoticeSettings.brownoutNoticeDays, [0, 90]),
    maxAttempts: int('maxAttempts', 8, [1, 50]),
    retryBaseSeconds: int('retryBaseSeconds', 30, [1, 86_400]),
    publicUrl: base,
    brownouts: parseBrownouts(n.brownouts ?? [], errors),
  };
}

function parseBrownouts(raw: unknown, errors: string[]): Brownout[] {
  if (!Array.isArray(raw)) {
    errors.push('notices.brownouts must be a list');
    return [];
  }
  return raw.flatMap((entry: Record<string, unknown>, i): Brownout[] => {
    const where = `notices.brownouts[${i}]`;
    const startsAt = typeof entry?.startsAt === 'string' ? parseIsoInstant(entry.startsAt) : undefined;
    const endsAt = typeof entry?.endsAt === 'string' ? parseIsoInstant(entry.endsAt) : undefined;
    if (typeof entry?.version !== 'string' || !/^v[0-9]+$/.test(entry.version))
      errors.push(`${where}.version must name a version such as "v1"`);
    if (entry?.endpoint !== undefined && (typeof entry.endpoint !== 'string' || !/^[A-Z]+ \/\S*$/.test(entry.endpoint)))
      errors.push(`${where}.endpoint must be "METHOD /path/{param}"`);
    if (startsAt === undefined || endsAt === undefined)
      errors.push(`${where}: startsAt and endsAt must be ISO 8601 instants`);
    else if (endsAt <= startsAt) errors.push(`${where}: endsAt must be after startsAt`);
    const known = ['version', 'endpoint', 'startsAt', 'endsAt', 'clients'];
    for (const key of Object.keys(entry ?? {}))
      if (!known.includes(key) && key !== 'calledWithinDays') errors.push(unknownKey(where, key, known));
    // Chosen from usage, a set depends on when it is resolved: only the API fixes and records it.
    if (entry?.calledWithinDays !== undefined)
      errors.push(
        `${where}.calledWithinDays is not read from the config file: plan it with POST /admin/v1/brownouts, which resolves and records the clients once`,
      );
    // A list of client ids, or absent for every client.
    const clients = entry?.clients;
    const clientsOk =
      clients === undefined ||
      (Array.isArray(clients) &&
        clients.length > 0 &&
        clients.length <= 10_000 &&
        clients.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 100));
    if (!clientsOk) errors.push(`${where}.clients must be a non-empty list of client ids`);
    if (typeof entry?.version !== 'string' || startsAt === undefined || endsAt === undefined) return [];
    return [
      {
        id: `cfg-${i + 1}`,
        version: entry.version,
        ...(typeof entry.endpoint === 'string' ? { endpoint: entry.endpoint } : {}),
        startsAt,
        endsAt,
        ...(clientsOk && clients ? { clients: [...new Set(clients as string[])] } : {}),
      },
    ];
  });
}

/** The notices part's section of the config file (with `publicUrl`, which its links start with). */
export const noticesSection = settingsSection('notices', {
  keys: ['notices', 'publicUrl'],
  parse: parseNoticesSettings,
});
