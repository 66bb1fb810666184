import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { projectRoot, runTool } from '../support/contract-tools.ts';
import { createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';
import { fetchServedDocuments, generousLimits } from './served-documents.ts';

// A small program written against the generated types, as a user of the API would write it. It
// type-checks only if the documents type ids, bodies, headers and errors as the server uses them.
const program = `
import createClient from 'openapi-fetch';
import type { paths as V1 } from './api-v1.ts';
import type { paths as V2 } from './api-v2.ts';
import type { paths as Admin } from './admin-v1.ts';

const baseUrl = process.env.BASE_URL!;
const headers = { authorization: 'Bearer ' + process.env.ADMIN_KEY! };
const out: Record<string, unknown> = {};
const fail = (what: string, detail: unknown): never => { throw new Error(what + ': ' + JSON.stringify(detail)); };

async function users(version: 'v1' | 'v2'): Promise<void> {
  const client = createClient<V1 & V2>({ baseUrl, headers });
  const created = await client.POST(version === 'v1' ? '/api/v1/users' : '/api/v2/users', { body: { name: 'Ada' } });
  if (!created.data) return fail('create', created.error);
  const id: number = created.data.id;
  const location: string | null = created.response.headers.get('location');
  const got = await client.GET(version === 'v1' ? '/api/v1/users/{id}' : '/api/v2/users/{id}', { params: { path: { id } } });
  if (!got.data || got.data.name !== 'Ada') return fail('get', got.error);
  const patched = await client.PATCH(version === 'v1' ? '/api/v1/users/{id}' : '/api/v2/users/{id}', {
    params: { path: { id } }, body: { name: 'Ada L.' }, headers: { 'content-type': 'application/merge-patch+json' },
  });
  if (!patched.data || patched.data.name !== 'Ada L.') return fail('patch', patched.error);
  const removed = await client.DELETE(version === 'v1' ? '/api/v1/users/{id}' : '/api/v2/users/{id}', { params: { path: { id } } });
  const again = await client.GET(version === 'v1' ? '/api/v1/users/{id}' : '/api/v2/users/{id}', { params: { path: { id } } });
  const problemCode: string | undefined = again.error?.code;
  out[version] = { id, location, got: got.data.name, patched: patched.data.name, deleted: removed.response.status, after: again.response.status, problemCode };
}

async function apiKeys(): Promise<void> {
  const client = createClient<Admin>({ baseUrl, headers });
  const created = await client.POST('/admin/v1/api-keys', { body: { name: 'reporting', roles: ['read'] } });
  if (!created.data) return fail('create key', created.error);
  const secret: string = created.data.key;
  const listed = await client.GET('/admin/v1/api-keys');
  if (!listed.data) return fail('list keys', listed.error);
  const revoked = await client.DELETE('/admin/v1/api-keys/{id}', { params: { path: { id: created.data.id } } });
  const after = await client.GET('/admin/v1/api-keys');
  const entry = after.data?.data.find((k) => k.id === created.data.id);
  out.admin = { secretShape: /^vk_/.test(secret), listed: listed.data.data.some((k) => k.id === created.data.id), revoked: revoked.response.status, revokedAt: typeof entry?.revokedAt };
}

// Deprecation is visible to generated code: the v1 document types the header, v2's has none.
type V1Get = V1['/api/v1/users/{id}']['get']['responses'][200]['headers'];
const deprecation: V1Get['Deprecation'] = 'typed';
const limit: NonNullable<NonNullable<V2['/api/v2/users']['get']['parameters']['query']>['limit']> = 20;
const replayed: NonNullable<V2['/api/v2/users']['post']['parameters']['header']>['Idempotency-Key'] = 'k';
out.types = { deprecation, limit, replayed };

await users('v1');
await users('v2');
await apiKeys();
console.log(JSON.stringify(out));
`;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(projectRoot, 'node_modules/@types')],
  },
  include: ['*.ts'],
};

describe('a client generated with openapi-typescript and openapi-fetch', () => {
  let t: TestApp;
  let dir: string;
  let baseUrl: string;
  before(async () => {
    t = await createTestApp(generousLimits());
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Below the project so the program resolves openapi-fetch; git ignores node_modules.
    dir = mkdtempSync(join(projectRoot, 'node_modules', 'versionary-client-'));
    for (const [file, doc] of Object.entries(await fetchServedDocuments(t.app))) {
      writeFileSync(join(dir, file.replace('.openapi.json', '.ts')), astToString(await openapiTS(doc as never)));
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(dir, 'round-trip.ts'), program);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'type-checks a program against the types generated from v1, v2 and the management API',
    { timeout: 180_000 },
    async () => {
      const run = await runTool({
        script: join(projectRoot, 'node_modules/typescript/bin/tsc'),
        args: ['-p', join(dir, 'tsconfig.json')],
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
    },
  );

  it(
    'runs it against a live server: users create/get/patch/delete in v1 and v2, api keys create/list/revoke',
    { timeout: 180_000 },
    async () => {
      const tsx = join(projectRoot, 'node_modules/tsx/dist/cli.mjs');
      const run = await runTool({
        script: tsx,
        args: [join(dir, 'round-trip.ts')],
        env: { BASE_URL: baseUrl, ADMIN_KEY: testAdminKey },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const out = JSON.parse(run.stdout) as Record<string, Record<string, unknown>>;
      for (const version of ['v1', 'v2']) {
        const r = out[version]!;
        assert.equal(typeof r.id, 'number');
        assert.deepEqual(
          { ...r, id: 0 },
          {
            id: 0,
            location: `/api/${version}/users/${String(r.id)}`,
            got: 'Ada',
            patched: 'Ada L.',
            deleted: 204,
            after: 404,
            problemCode: 'NOT_FOUND',
          },
        );
      }
      assert.deepEqual(out.admin, { secretShape: true, listed: true, revoked: 204, revokedAt: 'string' });
    },
  );
});
