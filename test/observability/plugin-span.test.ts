import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../src/core/versions/index.ts';
import { defineHandlers, versionary } from '../../src/http/plugin/index.ts';
import { startTestTelemetry, type TestTelemetry } from '../support/otel-sdk.ts';

const day = 86_400_000;
const t0 = Date.UTC(2026, 5, 1);
const iso = (at: number) => new Date(at).toISOString();
const operations: OperationSpec[] = [
  {
    id: 'notes.list',
    method: 'GET',
    path: '/notes',
    summary: 'List notes',
    query: { type: 'object', additionalProperties: false },
    responses: { 200: { description: 'The note', schema: 'Note' } },
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
  'notes.list': async () => ({ status: 200, body: { text: 'a note', colour: 'red' } }),
});

/** The plugin alone in a team's own Fastify app, its client as the app identifies it. */
describe('versionary.* attributes on the request span of a plain Fastify app with the plugin', () => {
  let now = t0;
  let telemetry: TestTelemetry;
  let app: FastifyInstance;
  const spanOf = async (url: string, status: number) => {
    const before = telemetry.requestSpans().length;
    const res = await app.inject({ url, headers: { 'x-team-client': 'mobile-app' } });
    assert.equal(res.statusCode, status, res.body);
    const spans = telemetry.requestSpans().slice(before);
    assert.equal(spans.length, 1, `one request span for ${url}`);
    return spans[0]!.attributes;
  };

  before(async () => {
    telemetry = startTestTelemetry();
    app = Fastify();
    await app.register(versionary, {
      bundle,
      handlers,
      vendor: 'notes',
      clock: { now: () => now },
      clientIdOf: (request) => String(request.headers['x-team-client'] ?? 'anonymous'),
      lifecycle: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 30 * day),
            migrationUrl: 'https://notes.example/v2',
          },
        },
      },
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await telemetry.stop();
  });

  it('says a v1 call is deprecated, with its sunset and the client the app named', async () => {
    const span = await spanOf('/api/v1/notes', 200);
    assert.equal(span['versionary.api.version'], 'v1');
    assert.equal(span['versionary.deprecated'], true);
    assert.equal(span['versionary.sunset'], iso(t0 + 30 * day));
    assert.equal(span['versionary.client.id'], 'mobile-app');
    const v2 = await spanOf('/api/v2/notes', 200);
    assert.equal(v2['versionary.deprecated'], false);
  });

  it('names the removal that answered a call past the sunset', async () => {
    now = t0 + 31 * day;
    const span = await spanOf('/api/v1/notes', 410);
    assert.equal(span['versionary.decision'], 'removed');
    assert.equal(span['versionary.api.version'], 'v1');
  });
});
