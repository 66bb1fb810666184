import { Type, type Static } from '@sinclair/typebox';
import { createSchemaValidator } from '../../core/config/index.ts';
import { unknownKey } from '../../core/text/index.ts';
import { settingsSection } from '../host/config.ts';

const integer = (max: number) =>
  Type.Integer({ minimum: 1, maximum: max, errorText: `must be an integer from 1 to ${max}` });

/** The budget of one signed-in key's portal pages: `max` requests per `windowSeconds`. */
const SessionBudgetSchema = Type.Object(
  { max: Type.Optional(integer(1_000_000)), windowSeconds: Type.Optional(integer(86_400)) },
  { additionalProperties: false },
);

/** The `portal` section of the config file: its type and its checks, every mistake at once. */
const PortalSectionSchema = Type.Object(
  {
    /** The signed-in pages' budget per signed-in key; `false` turns it off. */
    sessionBudget: Type.Optional(
      Type.Union([Type.Literal(false), SessionBudgetSchema], {
        errorText: 'must be false or an object such as {"max": 60, "windowSeconds": 20}',
      }),
    ),
  },
  { additionalProperties: false, errorText: 'must be an object such as {"sessionBudget": {"max": 60}}' },
);

export type SessionBudget = Required<Static<typeof SessionBudgetSchema>>;

/** @internal exported for the tests */
export interface PortalSettings {
  sessionBudget: SessionBudget | false;
}

const validator = createSchemaValidator(PortalSectionSchema, {
  unknownKey: ({ where, key, known }) => unknownKey(where, key, known),
});

/**
 * 60 pages per 20 seconds: a person never meets it; a script gets a burst of 60, then 3 a second.
 *
 * @internal exported for the tests
 */
export const defaultPortalSettings: PortalSettings = { sessionBudget: { max: 60, windowSeconds: 20 } };
const { sessionBudget: defaultBudget } = defaultPortalSettings as { sessionBudget: SessionBudget };

/**
 * Read `portal` from the config file, the defaults when it has a mistake.
 *
 * @internal exported for the tests
 */
export function parsePortalSettings(options: { file: Record<string, unknown>; errors: string[] }): PortalSettings {
  const { portal: raw = {} } = options.file;
  const errors = validator.errors(raw, 'portal');
  options.errors.push(...errors);
  if (errors.length > 0 || !validator.check(raw) || raw.sessionBudget === undefined) return defaultPortalSettings;
  const { sessionBudget } = raw;
  return { sessionBudget: sessionBudget && { ...defaultBudget, ...sessionBudget } };
}

export const portalSection = settingsSection('portal', { keys: ['portal'], parse: parsePortalSettings });
