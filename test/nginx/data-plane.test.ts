import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliProcess } from '../support/cli-process.ts';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { rawRequest, requireNginx, startDataPlane, type DataPlane } from '../support/nginx.ts';
import { eventually } from '../support/service-process.ts';
import type { UsageEntry } from '../../src/gateway/nginx/usage-batch.ts';
import { scenario, withKey } from './scenario.ts';

const example = new URL('../../examples/gateway/config.json', import.meta.url).pathname;
const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };

describe('versionary nginx renders the example gateway config', () => {
  it('writes the Lua data plane, the includes and an nginx.conf that nginx accepts, with no njs', async () => {
    requireNginx();
    const dir = mkdtempSync(join(tmpdir(), 'versionary-nginx-'));
    // mkdtemp's 0700 would keep nginx's workers (nobody, under root) out.
    chmodSync(dir, 0o755);
    try {
      const out = join(dir, 'out');
      const run = await runCliProcess(['nginx', '--config', example, '--out', out, '--listen', '18099'], {
        cwd: dir,
        env: { DATABASE_URL: `sqlite:${join(dir, 'cp.db')}` },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /nginx -p .* -c nginx\.conf/);
      for (const file of ['lua/versionary.lua', 'versionary-http.conf', 'versionary.conf', 'nginx.conf'])
        assert.ok(existsSync(join(out, file)), file);
      const http = readFileSync(join(out, 'versionary-http.conf'), 'utf8');
      // Usage is counted in shared memory and sent by the workers: no log line per call.
      assert.match(http, /lua_shared_dict versionary_usage 8m;/);
      assert.match(http, /init_worker_by_lua_block \{ require\("versionary"\)\.init_worker\(\) \}/);
      assert.match(http, /exit_worker_by_lua_block/);
      assert.doesNotMatch(
        http + readFileSync(join(out, 'versionary.conf'), 'utf8'),
        /log_format|versionary_usage buffer/,
      );
      assert.match(readFileSync(join(out, 'nginx.conf'), 'utf8'), /listen 127\.0\.0\.1:18099;/);
      for (const file of ['versionary-http.conf', 'versionary.conf', 'nginx.conf'])
        assert.doesNotMatch(readFileSync(join(out, file), 'utf8'), /\bjs_|ngx_http_js_module/, file);
      const check = spawnSync('/usr/sbin/nginx', ['-t', '-p', out, '-c', 'nginx.conf'], { encoding: 'utf8' });
      assert.equal(check.status, 0, check.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails in one line naming the folder and the user when nginx's workers cannot reach it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-nginx-'));
    // mkdtemp's 0700 would keep nginx's workers (nobody, under root) out.
    chmodSync(dir, 0o755);
    try {
      const hidden = join(dir, 'private');
      mkdirSync(hidden, { mode: 0o700 });
      const out = join(hidden, 'out');
      const run = await runCliProcess(['nginx', '--config', example, '--out', out], {
        cwd: dir,
        env: { DATABASE_URL: `sqlite:${join(dir, 'cp.db')}` },
      });
      if (process.getuid?.() !== 0) {
        // Not root: nginx's workers are this user, who can read what it wrote.
        assert.equal(run.code, 0, run.stderr);
        return;
      }
      assert.equal(run.code, 2, run.stdout);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`nobody .*${hidden.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a config that derives a version, naming it and how to serve it, rendering nothing (never a 502 later)', async () => {
    const derived = new URL('../../examples/gateway-derived/config.json', import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), 'versionary-nginx-'));
    try {
      const out = join(dir, 'out');
      const env = { DATABASE_URL: `sqlite:${join(dir, 'cp.db')}` };
      const sentence =
        /gateway\.versions\.v1 is derived from v2, and nginx as the data plane cannot translate a derived version: serve this config with `versionary gateway` as the data plane/;
      const render = await runCliProcess(['nginx', '--config', derived, '--out', out], { cwd: dir, env });
      assert.equal(render.code, 2, render.stdout);
      assert.match(render.stderr, sentence);
      assert.equal(existsSync(join(out, 'versionary.conf')), false, 'nothing rendered');
      // The control plane refuses it alike: nginx would route v1 to an upstream it does not have.
      const control = await runCliProcess(['gateway', '--config', derived, '--control-plane', '--port', '0'], {
        cwd: dir,
        env,
      });
      assert.equal(control.code, 2, control.stdout);
      assert.match(control.stderr, sentence);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names what is missing without --config', async () => {
    const run = await runCliProcess(['nginx', '--out', '/tmp/x'], { cwd: tmpdir(), env: { VERSIONARY_CONFIG: '' } });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--config/);
  });
});

describe('nginx as the data plane in front of the Python upstream', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, ...scenario({ rateLimit: 30 }) });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it("sends v1's lifecycle headers, and none on v2", async () => {
    const v1 = await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey });
    assert.equal(v1.status, 200);
    assert.deepEqual(await v1.json(), { id: 1, name: 'Ada Lovelace' });
    assert.ok(v1.headers.get('deprecation'));
    assert.ok(v1.headers.get('sunset'));
    assert.match(v1.headers.get('link') ?? '', /<\/api\/v2\/openapi\.json>; rel="successor-version"/);
    assert.match(v1.headers.get('warning') ?? '', /^299 - "API version v1 is deprecated and will be removed in 9 days/);
    const v2 = await fetch(`${nginx.base}/api/v2/users/1`, { headers: withKey });
    assert.equal(v2.status, 200);
    for (const name of ['deprecation', 'sunset', 'warning']) assert.equal(v2.headers.get(name), null, name);
    assert.equal(v2.headers.get('api-deprecated-versions'), 'v1');
  });

  it('answers 401 problems without a key and with a bad one, through the key check', async () => {
    for (const headers of [{}, { authorization: 'Bearer vk_not_a_key' }] as Array<Record<string, string>>) {
      const res = await fetch(`${nginx.base}/api/v2/users/1`, { headers });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="versionary"/);
      const problem = (await res.json()) as { code: string; instance: string };
      assert.equal(problem.code, 'UNAUTHENTICATED');
      assert.equal(problem.instance, '/api/v2/users/1');
    }
  });

  it('answers 429 past the limit, per credential, as a problem', async () => {
    const headers = { 'x-api-key': `vk_limited_${Date.now()}` };
    let limited: Response | undefined;
    // 30 a minute, in a burst of 30: a refusal comes within 40 calls however fast they go.
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await fetch(`${nginx.base}/api/v2/users/1`, { headers });
      if (res.status === 429) limited = res;
      else assert.equal(res.status, 401);
    }
    assert.ok(limited, 'no 429 in 40 calls');
    assert.equal(limited.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(((await limited.json()) as { code: string }).code, 'RATE_LIMITED');
    assert.equal(
      (await fetch(`${nginx.base}/api/v2/users/1`, { headers: withKey })).status,
      200,
      'another key is not limited',
    );
  });

  it('refuses ambiguous paths with the 404 problem, and never reaches the upstream with them', async () => {
    for (const target of [
      '/api/v2/../v1/users',
      '/api/v2/%2e%2e/x',
      '/api/v2/users%2F1',
      '/api/v2/users;x=1',
      '/api/v2/users\\1',
    ]) {
      const res = await rawRequest(nginx.base, target, withKey);
      assert.equal(res.status, 404, target);
      assert.match(JSON.parse(res.body).detail as string, /which servers read differently/, target);
    }
    const received = await python.received();
    assert.ok(!received.some((t) => t.includes(';') || t.includes('%2F') || t.includes('..')), received.join('\n'));
  });

  it('answers a brownout and a parameter past its sunset itself', async () => {
    const slow = await fetch(`${nginx.base}/api/v1/slow`, { headers: withKey });
    assert.equal(slow.status, 410);
    assert.match(((await slow.json()) as { detail: string }).detail, /planned brownout/);
    const offset = await fetch(`${nginx.base}/api/v2/users?offset=1`, { headers: withKey });
    assert.equal(offset.status, 400);
    assert.equal(((await offset.json()) as { code: string }).code, 'ELEMENT_REMOVED');
  });

  it('counts the API calls per client, operation and minute, with the deprecated elements, and sends them', async () => {
    const calls = (lines: UsageEntry[], version: string, operation: string) =>
      lines
        .filter((l) => l.version === version && l.operation === operation && l.status === 200)
        .reduce((sum, l) => sum + l.calls, 0);
    // Earlier tests' calls are sent within a second: counted from when they are.
    await new Promise((r) => setTimeout(r, 1500));
    const before = calls(nginx.usage(), 'v1', '/users/{id}');
    await fetch(`${nginx.base}/api/v2/users?page=2`, { headers: withKey });
    await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey });
    await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey });
    await fetch(`${nginx.base}/api/versions`);
    let lines: UsageEntry[] = [];
    await eventually(async () => {
      lines = nginx.usage();
      return calls(lines, 'v1', '/users/{id}') === before + 2 && lines.some((l) => l.deprecated === 'GET /users?page');
    }, 5000);
    const page = lines.find((l) => l.deprecated === 'GET /users?page');
    assert.ok(page, JSON.stringify(lines));
    assert.equal(page.client, 'admin');
    assert.equal(page.version, 'v2');
    assert.equal(page.operation, '/users');
    assert.equal(page.status, 200);
    assert.ok(Math.abs(page.minute - Date.now() / 60_000) < 2, `minute ${page.minute}`);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(calls(nginx.usage(), 'v1', '/users/{id}'), before + 2, 'each call counted once');
    assert.ok(
      lines.some((l) => l.status === 401 && l.client === ''),
      'refused calls are counted too',
    );
    assert.ok(!lines.some((l) => l.operation.includes('versions')), "the control plane's own paths are not");
  });
});

describe('changes through the management API reach nginx', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('re-renders and reloads nginx after a deprecation and a brownout', async () => {
    const before = await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey });
    assert.equal(before.headers.get('deprecation'), null);
    const scheduled = await fetch(`${nginx.control}/admin/v1/versions/v1/deprecation`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ noticeMonths: 12 }),
    });
    assert.equal(scheduled.status, 200, await scheduled.text());
    await eventually(
      async () =>
        (await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey })).headers.get('deprecation') !== null,
      10_000,
    );
    const now = Date.now();
    const brownout = await fetch(`${nginx.control}/admin/v1/brownouts`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        version: 'v1',
        startsAt: new Date(now).toISOString(),
        endsAt: new Date(now + 3_600_000).toISOString(),
      }),
    });
    assert.equal(brownout.status, 201, await brownout.text());
    await eventually(
      async () => (await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey })).status === 410,
      15_000,
    );
  });

  it('forwards no API call on the control plane itself', async () => {
    const res = await fetch(`${nginx.control}/api/v2/users/1`, { headers: withKey });
    assert.equal(res.status, 404);
    assert.match(((await res.json()) as { detail: string }).detail, /control plane/);
  });
});

describe('nginx with v1 past its sunset', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, ...scenario({ removedV1: true }) });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('answers 410 with the removal problem, with or without a key', async () => {
    for (const headers of [withKey, {}] as Array<Record<string, string>>) {
      const res = await fetch(`${nginx.base}/api/v1/users/1`, { headers });
      assert.equal(res.status, 410);
      const problem = (await res.json()) as { code: string; replacement: string };
      assert.equal(problem.code, 'VERSION_REMOVED');
      assert.equal(problem.replacement, 'v2');
    }
  });
});
