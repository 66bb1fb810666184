import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startTestService } from '../support/started-service.ts';
import { adminHeaders, consumerHeaders, createTestApp } from '../support/test-app.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const root = new URL('../../', import.meta.url).pathname;

/** Run the service process (`src/server.ts`) with this config file, expecting it to refuse to start: its exit code and output. */
async function refusedStart(file: Record<string, unknown>): Promise<{ code: number | null; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-field-names-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(file));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      VERSIONARY_ADMIN_KEY: 'test-admin-key-0123456789',
      VERSIONARY_CONFIG: join(dir, 'config.json'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  // A start that is not refused would listen forever: stop it, and the assertion names what it said.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  return { code: code as number | null, output };
}

const dates = (now: number) => ({ deprecatedAt: iso(now - day), sunsetAt: iso(now + 200 * day) });

// The spec: "Safe deprecation of a field: add the new field, document the old one as deprecated,
// and remove it in the next major version." A user thinks of the field `nickname` of a user, not
// of the five schemas that carry it.
describe('a field deprecation that names the field once', () => {
  it('reaches every schema of the version that carries it: the detail, the inputs and the fields twins', async () => {
    const now = Date.now();
    const service = await startTestService({
      file: {
        fieldDeprecations: [
          { version: 'v2', resource: 'User', field: 'nickname', ...dates(now), replacement: 'displayName' },
        ],
      },
    });
    try {
      const admin = { authorization: adminHeaders.authorization, 'content-type': 'application/json' };
      const created = await fetch(`${service.base}/api/v2/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
      });
      assert.equal(created.status, 201, await created.text());
      assert.match(created.headers.get('link') ?? '', /title="User\.nickname"/);
      const id = (created.headers.get('location') ?? '').split('/').pop();
      // The single user's schema is UserDetail: named once, the field is deprecated there too.
      const detail = await fetch(`${service.base}/api/v2/users/${id}?fields=nickname`, { headers: admin });
      assert.equal(detail.status, 200, await detail.text());
      assert.ok(detail.headers.get('deprecation'), 'GET /users/{id}?fields=nickname is a use');
      assert.match(detail.headers.get('link') ?? '', /rel="deprecation"; title="User\.nickname"/);
      const patched = await fetch(`${service.base}/api/v2/users/${id}`, {
        method: 'PATCH',
        headers: { ...admin, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ nickname: 'countess' }),
      });
      assert.equal(patched.status, 200, await patched.text());
      assert.ok(patched.headers.get('deprecation'), 'a UserPatch body that sends it is a use');
      const clean = await fetch(`${service.base}/api/v2/users/${id}?fields=displayName`, { headers: admin });
      assert.equal(clean.headers.get('deprecation'), null);

      const document = (await (await fetch(`${service.base}/api/v2/openapi.json`)).json()) as {
        components: { schemas: Record<string, { properties: Record<string, { deprecated?: boolean }> }> };
      };
      const marked = Object.entries(document.components.schemas)
        .filter(([, schema]) => schema.properties?.nickname?.deprecated === true)
        .map(([name]) => name)
        .sort();
      assert.deepEqual(marked, ['User', 'UserDetail', 'UserDetailPartial', 'UserInput', 'UserPartial', 'UserPatch']);

      // Counted under the one name, each use once: the POST, the GET with fields, the PATCH.
      let calls = 0;
      for (let i = 0; i < 40 && calls < 3; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const listing = (await (await fetch(`${service.base}/admin/v1/deprecations`, { headers: admin })).json()) as {
          data: Array<{ name: string; usage: { calls: number } }>;
        };
        calls = listing.data.find((d) => d.name === 'User.nickname')?.usage.calls ?? 0;
      }
      assert.equal(calls, 3);
    } finally {
      await service.stop();
    }
  });

  it('accepts, by its schemas, every schema name the served document shows, the generated Partial twins too', async () => {
    const now = Date.now();
    const schema = ['User', 'UserDetail', 'UserInput', 'UserPatch', 'UserPartial', 'UserDetailPartial'];
    const t = await createTestApp({
      env: { VERSIONARY_CONFIG: '/c.json' },
      files: {
        '/c.json': JSON.stringify({ fieldDeprecations: [{ version: 'v2', schema, field: 'nickname', ...dates(now) }] }),
      },
    });
    const shown = Object.keys((await t.app.inject({ url: '/api/v2/openapi.json' })).json().components.schemas);
    for (const name of schema) assert.ok(shown.includes(name), `the v2 document shows ${name}`);
    const selected = await t.app.inject({ url: '/api/v2/users?fields=id,nickname', headers: consumerHeaders });
    assert.equal(selected.statusCode, 200, selected.body);
    assert.match(String(selected.headers.link), /title="User\.nickname"/);
    await t.close();
  });

  it('refuses to start, in one line naming it, on a field named once that reaches no schema', async () => {
    const now = Date.now();
    const refused = await refusedStart({
      fieldDeprecations: [{ version: 'v2', resource: 'Usr', field: 'nickname', ...dates(now) }],
    });
    assert.notEqual(refused.code, 0, refused.output);
    assert.match(
      refused.output,
      /field deprecation Usr\.nickname in v2 reaches no schema: no schema of v2 named Usr or Usr<Suffix> has a field "nickname" \(schemas: User, UserDetail, /,
    );
  });
});

describe('a deprecated query parameter that the service writes into its own links', () => {
  it('is refused at start, naming the next-page link that carries it', async () => {
    const now = Date.now();
    const refused = await refusedStart({
      parameterDeprecations: [{ version: 'v2', method: 'GET', path: '/users', parameter: 'cursor', ...dates(now) }],
    });
    assert.notEqual(refused.code, 0, refused.output);
    assert.match(
      refused.output,
      /parameter deprecation GET \/users\?cursor in v2: the service writes "cursor" into the next-page link of GET \/users \(the Link rel="next" header and meta\.next\)/,
    );
  });
});
