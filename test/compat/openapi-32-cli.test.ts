// `versionary diff` as a process on OpenAPI 3.2 descriptions: the four changes 3.1-only tools miss
// or misjudge (a removed `additionalOperations` method, a retyped `itemSchema` member, an enum
// value added to a streamed event, a removed QUERY operation), each with the level of its rule.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliProcess } from '../support/cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'versionary-openapi32-'));
const ok = { '200': { description: 'ok' } };
const streamed = (itemSchema: unknown, media: string) => ({
  '200': { description: 'ok', content: { [media]: { itemSchema } } },
});

function description(side: 'base' | 'head'): Record<string, unknown> {
  const base = side === 'base';
  const paths: Record<string, unknown> = {
    '/api/v2/items/{id}': {
      get: { responses: ok },
      additionalOperations: base ? { PURGE: { responses: ok }, LINK: { responses: ok } } : { LINK: { responses: ok } },
    },
    '/api/v2/exports': {
      get: {
        responses: streamed(
          {
            type: 'object',
            properties: { id: { type: base ? 'integer' : 'string' }, name: { type: 'string' } },
            required: ['id'],
          },
          'application/jsonl',
        ),
      },
    },
    '/api/v2/events': {
      get: {
        responses: streamed(
          {
            type: 'object',
            properties: {
              event: { type: 'string', enum: base ? ['created', 'deleted'] : ['created', 'deleted', 'archived'] },
              data: { type: 'string' },
            },
          },
          'text/event-stream',
        ),
      },
    },
    '/api/v2/search': {
      get: { responses: ok },
      ...(base
        ? {
            query: {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
              },
              responses: ok,
            },
          }
        : {}),
    },
  };
  return { openapi: '3.2.0', info: { title: 'Shop', version: 'v2' }, paths };
}

before(() => {
  writeFileSync(join(dir, 'base.json'), JSON.stringify(description('base')));
  writeFileSync(join(dir, 'head.json'), JSON.stringify(description('head')));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('versionary diff on OpenAPI 3.2 descriptions, as a process', () => {
  it('reports the four 3.2 changes with the level of their rule, and fails the gate', async () => {
    const run = await runCliProcess(['diff', 'base.json', 'head.json', '--format', 'json'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as {
      changes: { id: string; level: string; location: { method?: string; path?: string } }[];
    };
    const seen = report.changes.map((c) => `${c.level} ${c.id} ${c.location.method ?? ''} ${c.location.path ?? ''}`);
    assert.deepEqual(seen.sort(), [
      'breaking endpoint-removed PURGE /api/v2/items/{id}',
      'breaking endpoint-removed QUERY /api/v2/search',
      'breaking response-type-changed GET /api/v2/exports',
      'risk response-enum-value-added GET /api/v2/events',
    ]);
  });

  it('prints them in the text report, the streamed item named as such', async () => {
    const run = await runCliProcess(['diff', 'base.json', 'head.json'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^BREAKING\s+endpoint-removed\s+PURGE \/api\/v2\/items\/\{id\}/m);
    assert.match(run.stdout, /^BREAKING\s+endpoint-removed\s+QUERY \/api\/v2\/search/m);
    assert.match(run.stdout, /body\[item\]\.id/);
    assert.match(run.stdout, /^RISK\s+response-enum-value-added/m);
  });

  it('the gate takes a waiver of the removed PURGE by its fingerprint, and fails on the rest', async () => {
    // The gate's JSON (with a waivers file) carries each change's fingerprint.
    writeFileSync(join(dir, 'none.json'), JSON.stringify({ waivers: [] }));
    const json = await runCliProcess(['diff', 'base.json', 'head.json', '--format', 'json', '--waivers', 'none.json'], {
      cwd: dir,
    });
    const changes = (JSON.parse(json.stdout) as { changes: { fingerprint: string; location: { method?: string } }[] })
      .changes;
    const purge = changes.find((c) => c.location.method === 'PURGE');
    assert.ok(purge, json.stdout);
    writeFileSync(
      join(dir, 'waivers.json'),
      JSON.stringify({ waivers: [{ fingerprint: purge.fingerprint, reason: 'PURGE moved to DELETE' }] }),
    );
    const gate = await runCliProcess(['diff', 'base.json', 'head.json', '--waivers', 'waivers.json'], { cwd: dir });
    assert.equal(gate.code, 1, 'the QUERY removal and the retyped item still break');
    assert.match(gate.stdout, /^APPROVED .*endpoint-removed.*PURGE \/api\/v2\/items\/\{id\}/m);
    assert.match(gate.stdout, /^BROKEN .*endpoint-removed.*QUERY \/api\/v2\/search/m);
  });

  it("diffs a 3.1 document's x-query operation as QUERY: its breaking change fails the gate", async () => {
    const body = (required: string[]) => ({
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required },
        },
      },
    });
    const of = (required: string[]) => ({
      openapi: '3.1.0',
      info: { title: 'Shop', version: 'v2' },
      paths: {
        '/api/v2/search': { get: { responses: ok }, 'x-query': { requestBody: body(required), responses: ok } },
      },
    });
    writeFileSync(join(dir, 'x-base.json'), JSON.stringify(of(['q'])));
    writeFileSync(join(dir, 'x-head.json'), JSON.stringify(of(['q', 'limit'])));
    const run = await runCliProcess(['diff', 'x-base.json', 'x-head.json', '--format', 'json'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as { changes: { level: string; location: { method?: string } }[] };
    assert.ok(
      report.changes.some((c) => c.level === 'breaking' && c.location.method === 'QUERY'),
      run.stdout,
    );
  });

  it('versionary lint reads the 3.2 descriptions, and finds a fixed method in additionalOperations', async () => {
    const clean = await runCliProcess(['lint', 'base.json', '--format', 'json'], { cwd: dir });
    const rules = (stdout: string) =>
      (JSON.parse(stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    assert.ok(clean.code === 0 || clean.code === 1, clean.stderr);
    assert.deepEqual(
      rules(clean.stdout).filter((r) => /additional|querystring/.test(r)),
      [],
      'no 3.2 finding where the fields are used as allowed',
    );
    const doc = description('base');
    const items = (doc.paths as Record<string, { additionalOperations: Record<string, unknown> }>)[
      '/api/v2/items/{id}'
    ]!;
    items.additionalOperations.POST = { responses: ok };
    writeFileSync(join(dir, 'fixed.json'), JSON.stringify(doc));
    const run = await runCliProcess(['lint', 'fixed.json', '--format', 'json'], { cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(rules(run.stdout).includes('additional-operation-fixed-method'), run.stdout);
  });

  it('follows a $ref written as a $self URI to the file at the same place beside the document', async () => {
    // Published under https://api.example.com/openapi/, kept under self/: the absolute refs are read
    // from self/shared/, where a 3.1 loader would refuse them as remote.
    const layout = join(dir, 'self');
    mkdirSync(join(layout, 'shared'), { recursive: true });
    const root = (file: string) => ({
      openapi: '3.2.0',
      $self: 'https://api.example.com/openapi/openapi.json',
      info: { title: 'Shop', version: 'v2' },
      paths: {
        '/api/v2/orders/{id}': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': { schema: { $ref: `https://api.example.com/openapi/shared/${file}#/Order` } },
                },
              },
            },
          },
        },
      },
    });
    const order = (file: string, status: string[]) => ({
      $self: `https://api.example.com/openapi/shared/${file}`,
      Order: { type: 'object', properties: { status: { $ref: '#/Status' } } },
      Status: { type: 'string', enum: status },
    });
    writeFileSync(join(layout, 'base.json'), JSON.stringify(root('order.json')));
    writeFileSync(join(layout, 'head.json'), JSON.stringify(root('order-next.json')));
    writeFileSync(join(layout, 'shared', 'order.json'), JSON.stringify(order('order.json', ['open', 'paid'])));
    writeFileSync(join(layout, 'shared', 'order-next.json'), JSON.stringify(order('order-next.json', ['open'])));
    const run = await runCliProcess(['diff', 'base.json', 'head.json', '--format', 'json'], { cwd: layout });
    assert.equal(run.code, 1, run.stderr);
    const [change, ...rest] = (JSON.parse(run.stdout) as { changes: { id: string; level: string }[] }).changes;
    assert.deepEqual(rest, []);
    assert.deepEqual([change?.id, change?.level], ['response-enum-value-removed', 'breaking']);
  });
});
