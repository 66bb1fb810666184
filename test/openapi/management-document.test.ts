import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { registerManagementDocument } from '../../src/loop/lifecycle/openapi/management-document.ts';
import { adminHeaders, createTestApp } from '../support/test-app.ts';

type Operation = {
  operationId: string;
  security: unknown[];
  'x-required-role'?: string;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  'x-undocumented'?: boolean;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

describe('the management API document', () => {
  it('is served to admins at /admin/v1/openapi.json, and to no one else', async () => {
    const t = await createTestApp();
    const res = await t.app.inject({ url: '/admin/v1/openapi.json', headers: adminHeaders });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().openapi, '3.1.0');
    assert.equal(
      (await t.app.inject({ url: '/admin/v1/openapi.json', headers: { authorization: '' } })).statusCode,
      401,
    );
    await t.close();
  });

  it('documents every management route, each with a response schema for every status it answers', async () => {
    const t = await createTestApp();
    const doc = (await t.app.inject({ url: '/admin/v1/openapi.json', headers: adminHeaders })).json() as Doc;
    await t.close();
    const listed = operations(doc)
      .map((o) => o.where)
      .sort();
    for (const route of [
      'POST /admin/v1/api-keys',
      'GET /admin/v1/api-keys',
      'DELETE /admin/v1/api-keys/{id}',
      'GET /admin/v1/versions',
      'GET /admin/v1/versions/{name}',
      'PUT /admin/v1/versions/{name}/deprecation',
      'GET /admin/v1/versions/{name}/calls',
      'POST /admin/v1/deprecations',
      'GET /admin/v1/deprecations',
    ]) {
      assert.ok(listed.includes(route), `${route} is documented`);
    }
    for (const { where, op } of operations(doc)) {
      assert.equal(op['x-undocumented'], undefined, `${where} declares its responses in its route schema`);
      const statuses = Object.keys(op.responses);
      assert.ok(
        statuses.some((s) => /^2/.test(s)),
        `${where} documents a success status`,
      );
      for (const status of statuses.filter((s) => s !== '204' && s !== '304')) {
        assert.ok(Object.values(op.responses[status]!.content ?? {})[0]?.schema, `${where} ${status} has a schema`);
      }
      assert.deepEqual(op.security, [{ apiKey: [] }, { apiKeyHeader: [] }], `${where} needs credentials`);
      assert.equal(op['x-required-role'], 'admin', `${where} needs the admin role`);
    }
  });

  it('picks up management routes registered later, and marks one without response schemas', async () => {
    const app = Fastify();
    registerManagementDocument(app, { prefix: '/admin/v1', jwt: false });
    await app.register(
      async (admin) => {
        admin.get(
          '/notices',
          {
            schema: {
              summary: 'List notices',
              response: { 200: { type: 'object', description: 'Notices', properties: { n: { type: 'integer' } } } },
            },
          },
          async () => ({ n: 1 }),
        );
        admin.get('/brownouts', async () => ({}));
      },
      { prefix: '/admin/v1' },
    );
    const doc = (await app.inject({ url: '/admin/v1/openapi.json' })).json() as Doc;
    await app.close();
    assert.equal(doc.paths['/admin/v1/notices']?.get?.['x-undocumented'], undefined);
    assert.ok(doc.paths['/admin/v1/notices']?.get?.responses['200']?.content?.['application/json']);
    assert.equal(doc.paths['/admin/v1/brownouts']?.get?.['x-undocumented'], true);
  });
});
