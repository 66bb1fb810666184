/**
 * The members `keys` of `object` that are not `undefined`: how an options object is passed on
 * under `exactOptionalPropertyTypes`, where an absent option and `undefined` differ.
 *
 * @example
 * ```ts
 * pickDefined({ a: 1, b: undefined, c: 3 }, ['a', 'b']); // { a: 1 }
 * ```
 */
export function pickDefined<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]),
  ) as Partial<Pick<T, K>>;
}
