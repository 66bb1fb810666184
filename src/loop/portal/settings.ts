import { settingsSection } from '../host/config.ts';
import { unknownKey } from '../../core/text/index.ts';
import { isPlainObject } from '../../core/versions/index.ts';

/** The budget of one signed-in key's portal pages: `max` requests per `windowSeconds`. */
export interface SessionBudget {
  max: number;
  windowSeconds: number;
}

/** @internal exported for the tests */
export interface PortalSettings {
  /** The signed-in pages' budget per signed-in key; `false` turns it off. */
  sessionBudget: SessionBudget | false;
}

/**
 * 60 pages per 20 seconds: a person never meets it; a script gets a burst of 60, then 3 a second.
 *
 * @internal exported for the tests
 */
export const defaultPortalSettings: PortalSettings = { sessionBudget: { max: 60, windowSeconds: 20 } };

const budgetKeys = ['max', 'windowSeconds'] as const;
const bounds = { max: [1, 1_000_000], windowSeconds: [1, 86_400] } as const;

/**
 * Read `portal` from the config file, keeping the default for each value in error.
 *
 * @internal exported for the tests
 */
export function parsePortalSettings(options: { file: Record<string, unknown>; errors: string[] }): PortalSettings {
  const { errors } = options;
  const raw = options.file.portal;
  if (raw === undefined) return { ...defaultPortalSettings };
  if (!isPlainObject(raw)) {
    errors.push(`portal must be an object such as {"sessionBudget": {"max": 60}}, not ${JSON.stringify(raw)}`);
    return { ...defaultPortalSettings };
  }
  for (const key of Object.keys(raw))
    if (key !== 'sessionBudget') errors.push(unknownKey('portal', key, ['sessionBudget']));
  const budget = raw.sessionBudget;
  if (budget === undefined || budget === false) return { sessionBudget: budget ?? defaultPortalSettings.sessionBudget };
  if (!isPlainObject(budget)) {
    errors.push(
      `portal.sessionBudget must be false or an object such as {"max": 60, "windowSeconds": 20}, not ${JSON.stringify(budget)}`,
    );
    return { ...defaultPortalSettings };
  }
  for (const key of Object.keys(budget))
    if (!(budgetKeys as readonly string[]).includes(key))
      errors.push(unknownKey('portal.sessionBudget', key, [...budgetKeys]));
  const fallback = defaultPortalSettings.sessionBudget as SessionBudget;
  const parsed = { ...fallback };
  for (const key of budgetKeys) {
    const value = budget[key] ?? fallback[key];
    const [min, max] = bounds[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) parsed[key] = value;
    else
      errors.push(`portal.sessionBudget.${key} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return { sessionBudget: parsed };
}

export const portalSection = settingsSection('portal', { keys: ['portal'], parse: parsePortalSettings });
