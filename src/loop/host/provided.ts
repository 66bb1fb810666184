import type { FastifyInstance } from 'fastify';

// One decorator per value, so that a value provided in a context reaches that context and its
// children only, as Fastify's encapsulation has it (the parts share one context: `fastify-plugin`).
const prefix = 'versionaryProvided:';
const names = new Set<string>();

/**
 * Hand `values` to the parts registered after the calling one: `installFeatures` merges them into
 * those parts' contexts (the usage part's recorder, the lifecycle's runtime, the notices' brownouts).
 * The host names none of them: the part that provides a value types it (`LifecycleContext`), and a
 * part that reads it declares that part in its `dependencies`, checked at its registration.
 */
export function provideToLaterParts(app: FastifyInstance, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    names.add(name);
    app.decorate(prefix + name, value);
  }
}

/** What the parts registered before provide, in `app`'s context, by name. */
export function providedIn(app: FastifyInstance): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of names)
    if (app.hasDecorator(prefix + name)) values[name] = (app as unknown as Record<string, unknown>)[prefix + name];
  return values;
}
