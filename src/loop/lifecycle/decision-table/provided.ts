import type { FastifyInstance } from 'fastify';
import type { DecisionTables } from './tables.ts';

const kDecisionTables = 'versionaryDecisionTables';

/** Provide the management API's decision tables to the parts that push them elsewhere (nginx). */
export function provideDecisionTables(app: FastifyInstance, tables: DecisionTables): void {
  app.decorate(kDecisionTables, tables);
}

/** The decision tables the management API serves, once it is installed; `undefined` without it. */
export function decisionTablesOf(app: FastifyInstance): DecisionTables | undefined {
  return app.hasDecorator(kDecisionTables)
    ? (app as unknown as Record<typeof kDecisionTables, DecisionTables>)[kDecisionTables]
    : undefined;
}
