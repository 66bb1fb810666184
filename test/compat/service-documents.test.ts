import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from '../../src/core/compat/index.ts';
import { createMigrationGuide, toMarkdown } from '../../src/core/guide/index.ts';
import { lintOpenApi } from '../../src/core/lint/index.ts';
import { toOpenApiDocument } from '../../src/core/versions/index.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { createTestApp } from '../support/test-app.ts';

const bundle = createApiBundle();
const comparable = (name: string) => toOpenApiDocument({ version: bundle.get(name)!, title: 't', basePath: '/api' });

describe("the service's own documents", () => {
  it('lint clean, exactly as served', async () => {
    const t = await createTestApp();
    for (const version of ['v1', 'v2']) {
      const doc = (await t.app.inject({ url: `/api/${version}/openapi.json` })).json();
      assert.deepEqual(lintOpenApi(doc), [], `${version} lints clean`);
    }
    await t.close();
  });

  it('diff v1 → v2: the list shapes break, the new fields and value do not', () => {
    const { changes } = diffOpenApi({ base: comparable('v1'), revision: comparable('v2') });
    const breaking = changes.filter((c) => c.level === 'breaking');
    assert.ok(breaking.length > 0);
    assert.ok(
      breaking.every((c) => /UserList|PostList/.test(JSON.stringify(c.location))),
      JSON.stringify(breaking.map((c) => c.location)),
    );
  });

  it('generate the v1 → v2 migration guide: GET /users list shape breaking; email, nickname, _version and pending additive', () => {
    const { changes } = diffOpenApi({ base: comparable('v1'), revision: comparable('v2') });
    const notes = bundle.get('v2')!.changes.map((c) => c.description);
    const guide = createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt: '2026-11-01T00:00:00Z', notes });
    const listBreak = guide.breaking.find(
      (e) => /GET \/api\/users\b(?!\/)/.test(e.endpoint) || /UserList/.test(e.endpoint),
    );
    assert.ok(listBreak, `GET /users list shape is breaking: ${JSON.stringify(guide.breaking)}`);
    assert.match(listBreak.endpoint, /GET \/api\/users/);
    const additive = JSON.stringify(guide.additive);
    for (const word of ['email', 'nickname', '_version', 'pending'])
      assert.ok(additive.includes(word), `${word} is additive`);
    assert.equal(guide.timeline.sunsetAt.slice(0, 10), '2027-04-30');
    assert.deepEqual(guide.notes, notes);
    const markdown = toMarkdown(guide);
    assert.match(markdown, /## Breaking changes/);
    assert.match(markdown, /## Additive changes/);
  });
});

describe('deprecation in the served documents', () => {
  it('marks every v1 operation deprecated with its x-sunset, and v2 operations not at all', async () => {
    const t = await createTestApp();
    const v1 = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    // The document's own public route is not an operation of the version: it stays after removal, for migration.
    const paths = { ...(v1.paths as Record<string, Record<string, { deprecated?: boolean; 'x-sunset'?: string }>>) };
    assert.equal(paths['/api/v1/openapi.json']?.get?.deprecated, undefined);
    delete paths['/api/v1/openapi.json'];
    const ops = Object.values(paths).flatMap((p) => Object.values(p));
    assert.ok(
      ops.length > 0 && ops.every((op) => op.deprecated === true && /^\d{4}-\d\d-\d\dT/.test(op['x-sunset'] ?? '')),
    );
    const v2 = (await t.app.inject({ url: '/api/v2/openapi.json' })).json();
    const ops2 = Object.values(v2.paths as Record<string, Record<string, { deprecated?: boolean }>>).flatMap((p) =>
      Object.values(p),
    );
    assert.ok(ops2.every((op) => op.deprecated === undefined));
    await t.close();
  });
});
