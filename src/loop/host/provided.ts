import type { FastifyInstance } from 'fastify';

// One decorator per value, so that a value provided in a context reaches that context and its
// children only, as Fastify's encapsulation has it (the parts share one context: `fastify-plugin`).
const prefix = 'versionaryProvided:';
const names = new Set<string>();

/** Hand `values` to the parts registered after the calling one (`installFeatures` merges them in). */
export function provideToLaterParts(app: FastifyInstance, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    names.add(name);
    app.decorate(prefix + name, value);
  }
}

export function providedIn(app: FastifyInstance): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of names)
    if (app.hasDecorator(prefix + name)) values[name] = (app as unknown as Record<string, unknown>)[prefix + name];
  return values;
}
