import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { checkLifecycleRules } from './lifecycle-rules.ts';
import {
  deprecationDateKeys,
  deprecationDatesOf,
  deprecationDatesSchema,
  LifecycleConfigSchema,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
  readEndpointEntry,
  readVersionEntry,
} from './lifecycle-schema.ts';

describe('lifecycleShapeErrors: the one lifecycle schema', () => {
  it('takes instants as ISO 8601 strings or epoch milliseconds, and refuses NaN', () => {
    assert.deepEqual(lifecycleShapeErrors({ versions: { v1: { releasedAt: 0, sunsetAt: '2027-01-01' } } }, ''), []);
    assert.deepEqual(lifecycleShapeErrors({ versions: { v1: { sunsetAt: Number.NaN } } }, ''), [
      'versions.v1.sunsetAt must be an ISO 8601 date or epoch milliseconds, not NaN',
    ]);
  });

  it('reports every mistake at once, each with its path, and a union once', () => {
    const errors = lifecycleShapeErrors(
      {
        versions: { v1: { sunsetAt: 'soon' }, v2: [] },
        endpointDeprecations: [{ version: '', method: 'GET', path: '/a', sunsetAt: true }],
        parameterDeprecations: {},
        headerStyle: 'loud',
      },
      'lifecycle',
    );
    assert.deepEqual(errors, [
      'lifecycle.versions.v1.sunsetAt must be an ISO 8601 date or epoch milliseconds, not "soon"',
      'lifecycle.versions.v2 must be an object, not []',
      'lifecycle.endpointDeprecations[0].version must be a non-empty string, not ""',
      'lifecycle.endpointDeprecations[0].sunsetAt must be an ISO 8601 date or epoch milliseconds, not true',
      'lifecycle.parameterDeprecations must be an array, not {}',
      'lifecycle.headerStyle must be "iso8601" or "rfc", not "loud"',
    ]);
  });

  it('suggests the nearest key for a typo (rule valid-config), at every level', () => {
    const near = (entry: Record<string, unknown>) => lifecycleShapeErrors({ versions: { v1: entry } }, '')[0] ?? '';
    assert.match(near({ migrationURL: 'x' }), /did you mean migrationUrl\?/);
    assert.match(near({ released: 'x' }), /did you mean releasedAt\?/);
    assert.match(near({ deprecatdAt: 'x' }), /did you mean deprecatedAt\?/);
    assert.doesNotMatch(near({ colour: 'x' }), /did you mean/);
    assert.match(
      lifecycleShapeErrors(
        { fieldDeprecations: [{ version: 'v1', schema: 'A', field: 'b', deprecatedAt: 0, sunsetAt: 1, sunset: 1 }] },
        '',
      )[0]!,
      /^fieldDeprecations\[0\]\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\? A field deprecation takes/,
    );
  });

  it('names its top-level keys once, with the endpoint deprecations under one name and its former one', () => {
    assert.deepEqual(lifecycleConfigKeys, [
      'versions',
      'endpointDeprecations',
      'endpoints',
      'fieldDeprecations',
      'parameterDeprecations',
      'headerStyle',
      'removedStatus',
      'audience',
    ]);
  });
});

describe('checkLifecycleRules: what a schema cannot tell', () => {
  it('asks a deprecation for a concrete sunset, unless the version is removed', () => {
    const rules = (entry: Record<string, unknown>) =>
      checkLifecycleRules({ config: { versions: { v1: entry } }, where: '' });
    assert.match(
      rules({ deprecatedAt: '2026-01-01' })[0]!,
      /^versions\.v1\.sunsetAt is required with a deprecatedAt \(rule concrete-sunset\)/,
    );
    assert.deepEqual(rules({ deprecatedAt: '2026-01-01', removed: true }), []);
  });

  it('with the bundle, as the routing plugin checks: code for each version, dated endpoint deprecations', () => {
    const errors = checkLifecycleRules({
      config: {
        versions: { v0: { releasedAt: '2024-01-01' }, v1: { sunsetAt: '2027-01-01' } },
        endpointDeprecations: [{ version: 'v9', method: 'GET', path: '/a', sunsetAt: 1 }],
      },
      where: 'lifecycle',
      bundle: ['v1', 'v2'],
    });
    assert.deepEqual(errors, [
      'lifecycle.versions.v0: v0 has no code in the version bundle (v1, v2); only a removed version (removed: true or a sunsetAt) may be listed without code',
      'lifecycle.versions.v1.deprecatedAt is required with a sunsetAt',
      'lifecycle.endpointDeprecations[0].version "v9" is not a version of the bundle (v1, v2)',
      'lifecycle.endpointDeprecations[0].deprecatedAt is required',
    ]);
  });
});

describe('the entries read through the schema: the dates declared once', () => {
  const june2027 = Date.parse('2027-06-01');
  const sept2027 = Date.parse('2027-09-01');

  it('reads a version entry that passes its schema, every instant the schema declares in epoch milliseconds', () => {
    assert.deepEqual(
      readVersionEntry({
        deprecatedAt: '2026-06-01',
        sunsetAt: june2027,
        extendedAccessUntil: '2027-09-01',
        replacement: 'v2',
      }),
      { deprecatedAt: Date.parse('2026-06-01'), sunsetAt: june2027, extendedAccessUntil: sept2027, replacement: 'v2' },
    );
    assert.deepEqual(
      readEndpointEntry({ version: 'v2', method: 'GET', path: '/a', sunsetAt: '2027-06-01', closedToNewClientsAt: 0 }),
      {
        version: 'v2',
        method: 'GET',
        path: '/a',
        sunsetAt: june2027,
        closedToNewClientsAt: 0,
      },
    );
  });

  it('leaves out an entry its schema refuses: lifecycleShapeErrors tells why', () => {
    assert.equal(readVersionEntry({ sunsetAt: 'soon' }), undefined);
    assert.equal(readVersionEntry({ sunset: '2027-06-01' }), undefined);
    assert.equal(readVersionEntry([]), undefined);
    assert.equal(readEndpointEntry({ version: 'v2', method: 'GET', sunsetAt: '2027-06-01' }), undefined);
  });

  it('spells the two dates in one schema, which every config entry takes', () => {
    assert.deepEqual(deprecationDateKeys, ['extendedAccessUntil', 'closedToNewClientsAt']);
    const entries = LifecycleConfigSchema.properties;
    const shapes = [
      ...Object.values(entries.versions.patternProperties),
      entries.endpointDeprecations.items,
      entries.fieldDeprecations.items,
      entries.parameterDeprecations.items,
    ] as unknown as Array<{ properties: Record<string, unknown> }>;
    assert.equal(shapes.length, 4);
    for (const shape of shapes) for (const key of deprecationDateKeys) assert.ok(key in shape.properties, key);
    assert.deepEqual(Object.keys(deprecationDatesSchema(() => Type.Number()).properties), deprecationDateKeys);
  });

  it('copies the two dates of an entry, read or not, and nothing else', () => {
    assert.deepEqual(deprecationDatesOf({ extendedAccessUntil: '2027-09-01', closedToNewClientsAt: june2027 }), {
      extendedAccessUntil: sept2027,
      closedToNewClientsAt: june2027,
    });
    const stored = { version: 'v1', sunsetAt: june2027, extendedAccessUntil: sept2027 };
    assert.deepEqual(deprecationDatesOf(stored), { extendedAccessUntil: sept2027 });
  });
});
