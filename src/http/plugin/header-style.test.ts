import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { createFixedClock } from '../../core/clock/index.ts';
import { type DeprecationHeaderStyle } from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { defineVersionChange, defineVersions, fieldAdded, ref, type OperationSpec } from '../../core/versions/index.ts';
import { defineHandlers, versionary } from './index.ts';

const operations: OperationSpec[] = [
  {
    id: 'notes.list',
    method: 'GET',
    path: '/notes',
    summary: 'List notes',
    query: { type: 'object', additionalProperties: false },
    responses: { 200: { description: 'Notes', schema: 'NoteList' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: {
      Note: {
        type: 'object',
        required: ['text'],
        properties: { text: { type: 'string' }, colour: { type: 'string' } },
      },
      NoteList: { type: 'array', items: ref('Note') },
    },
    operations,
  },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [
        defineVersionChange({ description: 'Notes gain a colour.', instructions: [fieldAdded('Note', 'colour')] }),
      ],
    },
  ],
});
const handlers = defineHandlers({
  'notes.list': async () => ({ status: 200, body: [{ text: 'buy milk', colour: 'yellow' }] }),
});

async function headersWith(headerStyle: DeprecationHeaderStyle): Promise<Record<string, unknown>> {
  const versions = {
    v1: { deprecatedAt: '2026-01-01', sunsetAt: '2026-12-31', migrationUrl: 'https://notes.example/v2' },
  };
  return lifecycleHeaders({ headerStyle, versions }, '/api/v1/notes');
}

function collectWarnings(): { warnings: Error[]; stop(): void } {
  const warnings: Error[] = [];
  const listener = (warning: Error) => warnings.push(warning);
  process.on('warning', listener);
  return { warnings, stop: () => process.off('warning', listener) };
}

// Process warnings are delivered on a later tick.
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('lifecycle.headerStyle is spelled "iso8601"; "iso" still works, with a deprecation warning', () => {
  it('"iso8601" sends ISO 8601 dates and warns about nothing', async () => {
    const seen = collectWarnings();
    const headers = await headersWith('iso8601');
    await tick();
    seen.stop();
    assert.equal(headers.deprecation, '2026-01-01T00:00:00.000Z');
    assert.equal(headers.sunset, '2026-12-31T00:00:00.000Z');
    assert.deepEqual(seen.warnings, []);
  });

  it('"iso" sends the same headers and emits DeprecationWarning VERSIONARY_DEP001 once per process', async () => {
    const seen = collectWarnings();
    const iso = await headersWith('iso');
    await headersWith('iso');
    await tick();
    seen.stop();
    assert.deepEqual(iso, await headersWith('iso8601'));
    assert.equal(seen.warnings.length, 1);
    const [warning] = seen.warnings as Array<Error & { code?: string }>;
    assert.equal(warning!.name, 'DeprecationWarning');
    assert.equal(warning!.code, 'VERSIONARY_DEP001');
    assert.match(warning!.message, /headerStyle "iso" is deprecated: write "iso8601"/);
  });
});

/** The lifecycle headers of `url` under a plugin with `lifecycle`, on 2026-03-01. */
async function lifecycleHeaders(
  lifecycle: Record<string, unknown>,
  url = '/api/v2/notes',
): Promise<Record<string, unknown>> {
  const app = Fastify();
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'notes',
    clock: createFixedClock(parseIsoInstant('2026-03-01')!),
    lifecycle,
  });
  const { headers } = await app.inject({ url });
  await app.close();
  return { deprecation: headers.deprecation, sunset: headers.sunset, link: headers.link };
}

describe('lifecycle.endpointDeprecations; the former name `endpoints` still works, with a deprecation warning', () => {
  const entry = { version: 'v2', method: 'GET', path: '/notes', deprecatedAt: '2026-01-01', sunsetAt: 1814400000000 };
  it('`endpoints` sends the same headers and emits DeprecationWarning VERSIONARY_DEP002 once per process', async () => {
    const seen = collectWarnings();
    const current = await lifecycleHeaders({ endpointDeprecations: [entry] });
    await tick();
    assert.deepEqual(seen.warnings, [], 'endpointDeprecations warns about nothing');
    const old = await lifecycleHeaders({ endpoints: [entry] });
    await lifecycleHeaders({ endpoints: [entry] });
    await tick();
    seen.stop();
    assert.equal(current.deprecation, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(old, current);
    assert.equal(seen.warnings.length, 1);
    const [warning] = seen.warnings as Array<Error & { code?: string }>;
    assert.equal(warning!.name, 'DeprecationWarning');
    assert.equal(warning!.code, 'VERSIONARY_DEP002');
    assert.match(warning!.message, /lifecycle\.endpoints is deprecated: write endpointDeprecations/);
  });
});
