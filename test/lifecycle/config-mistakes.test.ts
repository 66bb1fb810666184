import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, type LifecycleConfig } from '../../src/index.ts';
import { versionary } from '../../src/http/plugin/index.ts';
import { createTestApp } from '../support/test-app.ts';

// Each of these mistakes used to load without a word and leave v1 current, with no headers, or
// publish an invented release date. Now each is refused where it is registered, in the library
// plugin and in the service's config file alike.
const bundle = defineVersions({
  head: {
    schemas: {
      Note: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, colour: { type: 'string' } } },
    },
    operations: [
      {
        id: 'notes.get',
        method: 'GET',
        path: '/notes/{id}',
        summary: 'A note',
        responses: { 200: { description: 'A note', schema: 'Note' } },
      },
    ],
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
const handlers = { 'notes.get': async () => ({ status: 200, body: { id: 1, colour: 'red' } }) };

async function register(lifecycle: LifecycleConfig) {
  const app = Fastify();
  try {
    await app.register(versionary, { bundle, handlers, vendor: 'notes', lifecycle });
    await app.ready();
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

const mistakes: Array<{ name: string; entry: Record<string, string>; says: RegExp }> = [
  {
    name: 'a deprecatedAt with no sunsetAt',
    entry: { deprecatedAt: '2026-11-01' },
    says: /versions\.v1\.sunsetAt is required with a deprecatedAt \(rule concrete-sunset\)/,
  },
  {
    name: 'the typo `sunset`',
    entry: { deprecatedAt: '2026-11-01', sunset: '2027-06-01' },
    says: /versions\.v1\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\?/,
  },
];

describe('lifecycle mistakes are refused at registration', () => {
  for (const mistake of mistakes) {
    it(`the plugin refuses ${mistake.name}, naming the version, the key and the rule`, async () => {
      await assert.rejects(
        register({ versions: { v1: mistake.entry as never } }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'INVALID_CONFIG');
          assert.match(error.message, mistake.says);
          return true;
        },
      );
    });

    it(`the service refuses to start on ${mistake.name} in its config file`, async () => {
      const file = { versions: { v1: mistake.entry, v2: {} } };
      await assert.rejects(
        createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(file) } }),
        mistake.says,
      );
    });
  }

  it('an undeclared release date is published as null, not as 1971-01-02', async () => {
    const app = await register({
      versions: {
        v1: { deprecatedAt: '2026-11-01', sunsetAt: '2027-06-01', migrationUrl: 'https://notes.example/v2' },
      },
    });
    const document = (await app.inject({ url: '/api/versions' })).json() as {
      versions: Array<{ name: string; releasedAt: string | null }>;
    };
    assert.deepEqual(
      document.versions.map((v) => [v.name, v.releasedAt]),
      [
        ['v1', null],
        ['v2', null],
      ],
    );
    await app.close();
  });
});
