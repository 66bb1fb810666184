/**
 * The members `keys` of `object` that are not `undefined`: how an options object is passed on
 * under `exactOptionalPropertyTypes`, where an absent option and `undefined` differ.
 */
export function pickDefined<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]),
  ) as Partial<Pick<T, K>>;
}
