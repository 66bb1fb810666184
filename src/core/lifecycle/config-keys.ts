import { nearestName } from '../text/unknown-key.ts';

/** The keys one version's entry takes, in a `LifecycleConfig` and in the service's config file. */
export const versionEntryKeys = [
  'releasedAt',
  'deprecatedAt',
  'sunsetAt',
  'removed',
  'replacement',
  'migrationUrl',
  'reason',
] as const;

/** Options for {@link checkVersionEntry}. */
export interface CheckVersionEntryOptions {
  /** The entry as written, before any parsing. */
  entry: Record<string, unknown>;
  /** Where it sits, for the message: `lifecycle.versions.v1` or `versions.v1`. */
  where: string;
}

/**
 * The mistakes in one version's lifecycle entry that would otherwise leave the version silently
 * current: a key the lifecycle does not know (rule `valid-config`), and a deprecation without a
 * sunset (rule `concrete-sunset`). Each message names the version, the key and the rule.
 */
export function checkVersionEntry(options: CheckVersionEntryOptions): string[] {
  const { entry, where } = options;
  const errors = checkKnownKeys({ object: entry, known: versionEntryKeys, where, what: 'a version' });
  // A deprecation date alone schedules nothing: without a sunset there are no headers to send.
  if (entry.deprecatedAt !== undefined && entry.sunsetAt === undefined && entry.removed !== true) {
    errors.push(
      `${where}.sunsetAt is required with a deprecatedAt (rule concrete-sunset): a deprecation names a concrete sunset date; without one ${lastSegment(where)} would stay current, with no deprecation headers`,
    );
  }
  return errors;
}

/** Options for {@link checkKnownKeys}. */
export interface CheckKnownKeysOptions {
  object: Record<string, unknown>;
  known: readonly string[];
  where: string;
  /** What the object is, for the message: `a version`, `an endpoint deprecation`. */
  what: string;
}

/**
 * Rule `valid-config`: every key of a lifecycle object is one it takes. A typo such as `sunset`
 * would otherwise be ignored, and the date with it; the message suggests the nearest known key.
 */
export function checkKnownKeys(options: CheckKnownKeysOptions): string[] {
  const { known, where } = options;
  return Object.keys(options.object)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = nearestName(key, known);
      return (
        `${where}.${key} is not a lifecycle key (rule valid-config)${near ? `; did you mean ${near}?` : ''} ` +
        `${capitalise(options.what)} takes ${known.join(', ')}`
      );
    });
}

function lastSegment(where: string): string {
  return where.slice(where.lastIndexOf('.') + 1);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
