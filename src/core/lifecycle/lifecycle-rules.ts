import { parseIsoInstant } from '../time/index.ts';
import { declaredOrder, orderReleases } from './release-order.ts';
import { isPlainObject } from '../versions/schema-walk.ts';

interface CheckLifecycleRulesOptions {
  /** The config as written: checked with the schema too, so these rules read it defensively. */
  config: unknown;
  /** Where it sits, for the messages: `lifecycle` in the plugin, `''` in the config file. */
  where: string;
  /** The versions that have code: given by the routing plugin, which stores nothing, so every date must be in the config. */
  bundle?: readonly string[];
}

/** The lifecycle rules across fields that no JSON schema can tell, as sentences. */
export function checkLifecycleRules(options: CheckLifecycleRulesOptions): string[] {
  const { where, bundle } = options;
  const config = isPlainObject(options.config) ? options.config : {};
  const at = (key: string) => (where === '' ? key : `${where}.${key}`);
  const errors: string[] = [];
  if (config.endpoints !== undefined && config.endpointDeprecations !== undefined)
    errors.push(`${at('endpoints')} is the former name of endpointDeprecations: give only endpointDeprecations`);
  const versions = isPlainObject(config.versions) ? config.versions : {};
  for (const [name, entry] of Object.entries(versions)) {
    if (!isPlainObject(entry)) continue;
    const here = at(`versions.${name}`);
    // A deprecation date alone schedules nothing: without a sunset there are no headers to send.
    if (entry.deprecatedAt !== undefined && entry.sunsetAt === undefined && entry.removed !== true) {
      errors.push(
        `${here}.sunsetAt is required with a deprecatedAt (rule concrete-sunset): a deprecation names a concrete sunset date; without one ${name} would stay current, with no deprecation headers`,
      );
    }
    errors.push(...capErrors(entry, here), ...closingErrors(entry, here));
    if (!bundle) continue;
    if (entry.sunsetAt !== undefined && entry.deprecatedAt === undefined)
      errors.push(`${here}.deprecatedAt is required with a sunsetAt`);
    if (!bundle.includes(name) && entry.removed !== true && entry.sunsetAt === undefined) {
      errors.push(
        `${here}: ${name} has no code in the version bundle (${bundle.join(', ')}); only a removed version (removed: true or a sunsetAt) may be listed without code`,
      );
    }
  }
  if (!bundle) return errors;
  const dated = Object.entries(versions).map(([name, entry]) => ({
    name,
    releasedAt: isPlainObject(entry) ? instantMs(entry.releasedAt) : undefined,
  }));
  const order = declaredOrder({ configured: dated.map((v) => v.name), bundle });
  const { problems } = orderReleases(order.map((name) => dated.find((v) => v.name === name) ?? { name }));
  errors.push(...problems.map((p) => `${at('versions')}: ${p}`));
  for (const key of ['endpointDeprecations', 'endpoints']) {
    const list = config[key];
    (Array.isArray(list) ? list : []).forEach((entry: unknown, i) => {
      if (!isPlainObject(entry)) return;
      const here = `${at(key)}[${i}]`;
      if (typeof entry.version === 'string' && !bundle.includes(entry.version))
        errors.push(
          `${here}.version ${JSON.stringify(entry.version)} is not a version of the bundle (${bundle.join(', ')})`,
        );
      // The plugin stores nothing: an undated deprecation would start anew at every start.
      if (entry.deprecatedAt === undefined) errors.push(`${here}.deprecatedAt is required`);
    });
  }
  return errors;
}

/** An instant of a lifecycle config as epoch milliseconds; `undefined` when absent or unreadable. */
export function instantMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' ? parseIsoInstant(value) : undefined;
}

/** The cap on extended access comes after the sunset it extends (before it, it grants nothing). */
export function capErrors(entry: Record<string, unknown>, here: string): string[] {
  const cap = instantMs(entry.extendedAccessUntil);
  if (cap === undefined) return [];
  const sunset = instantMs(entry.sunsetAt);
  if (sunset === undefined) return [`${here}.extendedAccessUntil needs a sunsetAt to extend`];
  return cap > sunset ? [] : [`${here}.extendedAccessUntil must be after the sunsetAt it extends`];
}

/**
 * A closing to new clients before the deprecation would shut clients out before they were told.
 * One that has passed since is the normal case after a restart, so the clock is not consulted.
 */
export function closingErrors(entry: Record<string, unknown>, here: string): string[] {
  const closed = instantMs(entry.closedToNewClientsAt);
  const deprecated = instantMs(entry.deprecatedAt);
  if (closed === undefined || deprecated === undefined || closed >= deprecated) return [];
  return [
    `${here}.closedToNewClientsAt must not come before the deprecatedAt (${String(entry.deprecatedAt)}): clients would be shut out before being told`,
  ];
}

/** A client's extended access, clamped to the subject's cap (none without a cap): the one clamp every reader applies. */
export function cappedUntil(until: number | undefined, cap: number | undefined): number | undefined {
  return until === undefined || cap === undefined ? undefined : Math.min(until, cap);
}
