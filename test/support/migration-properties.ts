import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ApiVersion, VersionBundle } from '../../src/core/versions/index.ts';
import { arbitraryOf } from './schema-arbitrary.ts';
import { createSchemaValidator } from './schema-validator.ts';

/** One property of a bundle's migrations, runnable as a test. */
export interface MigrationProperty {
  name: string;
  run: () => void;
}

/**
 * The properties every version change must keep, one per older version and body schema it
 * routes: a head response generated from its schema, migrated down, validates against the older
 * schema (every required field present, nothing the older version lacks); an older request
 * generated from its schema, migrated up, validates against the head's in the same way.
 */
export function migrationProperties(bundle: VersionBundle, options: { numRuns?: number } = {}): MigrationProperty[] {
  const { latest } = bundle;
  const validators = new Map(
    bundle.versions.map((v) => [v.name, createSchemaValidator({ schemas: v.schemas, closed: true })]),
  );
  const runs = { numRuns: options.numRuns ?? 100 };
  const properties: MigrationProperty[] = [];
  const seen = new Set<string>();
  const add = (key: string, property: MigrationProperty) => {
    if (seen.has(key)) return;
    seen.add(key);
    properties.push(property);
  };
  for (const version of bundle.versions.filter((v) => v !== latest)) {
    const check = (options: { to: ApiVersion; schema: string; value: unknown; from: unknown }) => {
      const errors = validators.get(options.to.name)!(options.schema, options.value);
      assert.deepEqual(
        errors,
        [],
        `${options.to.name} ${options.schema} from ${JSON.stringify(options.from)}: got ${JSON.stringify(options.value)}`,
      );
    };
    for (const operation of version.operations) {
      for (const schema of Object.values(operation.responses)
        .map((r) => r.schema)
        .filter((s): s is string => !!s)) {
        add(`down ${version.name} ${schema}`, {
          name: `a ${latest.name} ${schema} response migrated down to ${version.name} validates against ${version.name}`,
          run: () =>
            fc.assert(
              fc.property(arbitraryOf({ schemas: latest.schemas, schema: latest.schemas[schema]! }), (body) => {
                const value = bundle.migrations.responseDown({
                  schema,
                  body: structuredClone(body),
                  from: latest,
                  to: version,
                });
                check({ to: version, schema, value, from: body });
              }),
              runs,
            ),
        });
      }
      const schema = operation.body;
      if (!schema) continue;
      add(`up ${version.name} ${schema} ${operation.id}`, {
        name: `a ${version.name} ${schema} request to ${operation.id} migrated up to ${latest.name} validates against ${latest.name}`,
        run: () =>
          fc.assert(
            fc.property(arbitraryOf({ schemas: version.schemas, schema: version.schemas[schema]! }), (body) => {
              const value = bundle.migrations.requestUp({
                schema,
                body: structuredClone(body),
                from: version,
                to: latest,
                operationId: operation.id,
              });
              check({ to: latest, schema, value, from: body });
            }),
            runs,
          ),
      });
    }
  }
  return properties;
}
