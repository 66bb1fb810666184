import { unknownKey } from '../../core/text/index.ts';
/** What a feature's settings parser is given: the config file's content and the error list. */
export interface SettingsInput {
  file: Record<string, unknown>;
  /** Every problem found, in words that name the key; all are reported at once. */
  errors: string[];
}

/**
 * A feature's part of the config file: the top-level keys it owns and the parser that reads them.
 * The composition lists every feature's settings once; `loadConfig` runs them all in one pass, so
 * an unknown key, or a bad value of any feature, is reported with all the others.
 */
export interface FeatureSettings<T> {
  /** The top-level keys of the config file this feature reads. */
  keys: readonly string[];
  parse(input: SettingsInput): T;
}

/** The parsed settings of a list of features, by the name each has in the list. */
export type ParsedSettings<List extends Record<string, FeatureSettings<unknown>>> = {
  [K in keyof List]: ReturnType<List[K]['parse']>;
};

/** Run every feature's parser over the file, and report the keys no feature owns. */
export function parseFeatureSettings<List extends Record<string, FeatureSettings<unknown>>>(
  options: SettingsInput & { list: List; fileName?: string; ownKeys?: readonly string[] },
): ParsedSettings<List> {
  const { list, file, errors } = options;
  const known = new Set([...(options.ownKeys ?? []), ...Object.values(list).flatMap((s) => s.keys)]);
  for (const key of Object.keys(file)) {
    if (!known.has(key)) errors.push(unknownKey(options.fileName ?? 'config', key, [...known]));
  }
  return Object.fromEntries(
    Object.entries(list).map(([name, settings]) => [name, settings.parse({ file, errors })]),
  ) as ParsedSettings<List>;
}
