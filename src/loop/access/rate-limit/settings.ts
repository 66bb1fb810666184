import { settingsSection } from '../../host/config.ts';
import type { Role } from '../../../kernel/ports/principal.ts';
import { unknownKey } from '../../../core/text/index.ts';
import { isPlainObject } from '../../../core/versions/index.ts';

/** A role's override of the base limit. */
interface RoleLimit {
  /** Requests per window for principals holding this role. */
  max: number;
}

/** The `rateLimit` part of the config file, parsed. */
export interface RateLimitSettings {
  /** `false` turns the limiter off (the hook is then a no-op). */
  enabled: boolean;
  /** Requests per window for a client with no role override, unauthenticated clients included. */
  max: number;
  /** The fixed window's length, shared by every role. */
  windowSeconds: number;
  /** Per-role overrides; a principal gets the most generous limit among its roles. */
  roles: Partial<Record<Role, RoleLimit>>;
}

/**
 * The limits used when the config file says nothing: 100 requests per 60 seconds per client, no
 * role overrides. About 1.7 requests a second suits an interactive client and stops a runaway loop
 * within a minute.
 *
 * @internal exported for the tests
 */
export const defaultRateLimitSettings: RateLimitSettings = { enabled: true, max: 100, windowSeconds: 60, roles: {} };

const roleNames: readonly Role[] = ['read', 'write', 'admin'];
const maxCeiling = 1_000_000_000;
const windowCeiling = 86_400;

/**
 * Read `rateLimit` from the config file, pushing every error found into `errors` and falling back to
 * the default for each value in error. The part reads it through `rateLimitSection`.
 *
 * @internal exported for the tests
 */
export function parseRateLimitSettings(o: { file: Record<string, unknown>; errors: string[] }): RateLimitSettings {
  const { file, errors } = o;
  const raw = file.rateLimit;
  if (raw === undefined) return { ...defaultRateLimitSettings, roles: {} };
  if (!isPlainObject(raw)) {
    errors.push(`rateLimit must be an object such as {"max": 100, "windowSeconds": 60}, not ${JSON.stringify(raw)}`);
    return { ...defaultRateLimitSettings, roles: {} };
  }
  unknownKeys({ value: raw, known: ['enabled', 'max', 'windowSeconds', 'roles'], where: 'rateLimit', errors });
  const enabled = raw.enabled ?? true;
  if (typeof enabled !== 'boolean')
    errors.push(`rateLimit.enabled must be true or false, not ${JSON.stringify(enabled)}`);
  const max =
    integer({ value: raw.max, where: 'rateLimit.max', range: [1, maxCeiling], errors }) ?? defaultRateLimitSettings.max;
  const windowSeconds =
    integer({ value: raw.windowSeconds, where: 'rateLimit.windowSeconds', range: [1, windowCeiling], errors }) ??
    defaultRateLimitSettings.windowSeconds;
  return { enabled: enabled !== false, max, windowSeconds, roles: parseRoles(raw.roles, errors) };
}

function parseRoles(raw: unknown, errors: string[]): Partial<Record<Role, RoleLimit>> {
  const roles: Partial<Record<Role, RoleLimit>> = {};
  if (raw === undefined) return roles;
  if (!isPlainObject(raw)) {
    errors.push(
      `rateLimit.roles must be an object keyed by role (${roleNames.join(', ')}), not ${JSON.stringify(raw)}`,
    );
    return roles;
  }
  for (const [name, value] of Object.entries(raw)) {
    const where = `rateLimit.roles.${name}`;
    if (!roleNames.includes(name as Role)) {
      errors.push(`${where}: unknown role "${name}" (known: ${roleNames.join(', ')})`);
      continue;
    }
    if (!isPlainObject(value)) {
      errors.push(`${where} must be an object such as {"max": 1000}, not ${JSON.stringify(value)}`);
      continue;
    }
    unknownKeys({ value, known: ['max'], where, errors });
    if (value.max === undefined) {
      errors.push(`${where}.max is required: the role's requests per window`);
      continue;
    }
    const max = integer({ value: value.max, where: `${where}.max`, range: [1, maxCeiling], errors });
    if (max !== undefined) roles[name as Role] = { max };
  }
  return roles;
}

function integer(o: { value: unknown; where: string; range: [number, number]; errors: string[] }): number | undefined {
  const { value, where } = o;
  const [low, high] = o.range;
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= low && value <= high) return value;
  o.errors.push(`${where} must be an integer from ${low} to ${high}, not ${JSON.stringify(value)}`);
  return undefined;
}

function unknownKeys(o: { value: Record<string, unknown>; known: string[]; where: string; errors: string[] }): void {
  for (const key of Object.keys(o.value)) if (!o.known.includes(key)) o.errors.push(unknownKey(o.where, key, o.known));
}

/** The access part's rate limits: its section of the config file. */
export const rateLimitSection = settingsSection('rateLimit', { keys: ['rateLimit'], parse: parseRateLimitSettings });
