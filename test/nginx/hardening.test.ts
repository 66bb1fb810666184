import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathOverrides } from '../../src/http/forward-headers.ts';
import { pushSocketOf } from '../../src/gateway/nginx/render-conf.ts';
import { privateDirOf, secretFileOf } from '../../src/gateway/nginx/secret.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { startPythonUpstream, writeGatewayFiles, type PythonUpstream } from '../support/gateway.ts';
import { requireNginx, startDataPlane, type DataPlane } from '../support/nginx.ts';
import { eventually, freePort } from '../support/service-process.ts';
import { scenario, withKey } from './scenario.ts';

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** One request on nginx's push socket, as any local process would send it. */
function push(
  socketPath: string,
  method: string,
  o: { path: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  const { path, headers, body = '' } = o;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { socketPath, method, path, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const secretOf = (nginx: DataPlane) => readFileSync(secretFileOf(nginx.out), 'utf8').trim();

/** nginx's table in force: its generation and digest (`GET /state`, with the secret). */
async function stateOf(nginx: DataPlane): Promise<{ generation: number; digest: string }> {
  const res = await push(pushSocketOf(nginx.out), 'GET', {
    path: '/state',
    headers: { 'x-versionary-secret': secretOf(nginx) },
  });
  assert.equal(res.status, 200, res.body);
  return JSON.parse(res.body) as { generation: number; digest: string };
}

function assertSecretProblem(res: Answer): void {
  assert.equal(res.status, 401, res.body);
  assert.equal(res.contentType, 'application/problem+json; charset=utf-8');
  const problem = JSON.parse(res.body) as { code: string; detail: string };
  assert.equal(problem.code, 'UNAUTHENTICATED');
  assert.match(problem.detail, /shared secret/);
}

describe("nginx's push socket, the control plane's nginx routes and the upstream's headers", () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, ...scenario() });
    // The control plane's table is in force before anything is forged.
    await nginx.sync();
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('keeps the socket in a folder only its owner reaches, and the secret readable by its owner alone', () => {
    const socket = pushSocketOf(nginx.out);
    assert.equal(socket, join(nginx.out, 'private', 'push.sock'));
    assert.ok(statSync(socket).isSocket(), socket);
    assert.equal(statSync(privateDirOf(nginx.out)).mode & 0o777, 0o700);
    assert.equal(statSync(secretFileOf(nginx.out)).mode & 0o777, 0o600);
    assert.match(secretOf(nginx), /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!existsSync(join(nginx.out, 'push.sock')), 'no socket is left where every user reaches it');
    if (process.getuid?.() !== 0) return;
    // Another local user (nobody) cannot even connect to it: the folder stops it before nginx does.
    // Debian's Python, which nobody can run wherever this test's Node lives (a fetched Node line
    // under /root is out of nobody's reach).
    const script = [
      'import errno, socket, sys',
      's = socket.socket(socket.AF_UNIX)',
      'try:',
      '    s.connect(sys.argv[1]); print("connected")',
      'except OSError as e:',
      '    print(errno.errorcode[e.errno])',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script, socket], { uid: 65534, gid: 65534, encoding: 'utf8' });
    assert.ifError(run.error);
    assert.equal(run.stdout.trim(), 'EACCES', run.stderr);
  });

  it('refuses a push without the secret, or with another, and keeps the table in force', async () => {
    const before = await stateOf(nginx);
    const table = (await (
      await fetch(`${nginx.control}/_versionary/nginx/table`, { headers: { 'x-versionary-secret': secretOf(nginx) } })
    ).json()) as { generation: number; versions: string[] };
    // The probe's forgery: a table of the attacker's, here one where v1 no longer exists.
    const forged = JSON.stringify({ ...table, generation: table.generation + 1000, versions: ['v2'] });
    const socket = pushSocketOf(nginx.out);
    for (const headers of [{}, { 'x-versionary-secret': 'x'.repeat(43) }, { 'x-versionary-secret': '' }] as Array<
      Record<string, string>
    >) {
      assertSecretProblem(
        await push(socket, 'PUT', {
          path: '/table',
          headers: { ...headers, 'content-type': 'application/json' },
          body: forged,
        }),
      );
      assertSecretProblem(await push(socket, 'POST', { path: '/keys/flush', headers }));
      assertSecretProblem(await push(socket, 'GET', { path: '/state', headers }));
    }
    assert.deepEqual(await stateOf(nginx), before);
    assert.equal((await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey })).status, 200);
  });

  it('pushes its own table again when nginx holds another, even one pushed with the secret', async () => {
    const own = await stateOf(nginx);
    const secret = secretOf(nginx);
    const table = (await (
      await fetch(`${nginx.control}/_versionary/nginx/table`, { headers: { 'x-versionary-secret': secret } })
    ).json()) as { generation: number };
    const forged = JSON.stringify({ ...table, versions: ['v2'] });
    const res = await push(pushSocketOf(nginx.out), 'PUT', {
      path: '/table',
      headers: { 'x-versionary-secret': secret, 'content-type': 'application/json' },
      body: forged,
    });
    assert.equal(res.status, 200, res.body);
    assert.notEqual((await stateOf(nginx)).digest, own.digest);
    // Checked every 2 s by its digest: the control plane's table is back within a few.
    await eventually(async () => (await stateOf(nginx)).digest === own.digest, 10_000);
    assert.equal((await fetch(`${nginx.base}/api/v1/users/1`, { headers: withKey })).status, 200);
  });

  it("answers the table and the key check to nginx's secret alone", async () => {
    const secret = secretOf(nginx);
    for (const path of ['/_versionary/nginx/table', '/_versionary/nginx/auth']) {
      const wrong: Array<Record<string, string>> = [
        {},
        { 'x-versionary-secret': `${secret}x` },
        { 'x-versionary-secret': secret.slice(1) },
      ];
      for (const headers of wrong) {
        const res = await fetch(`${nginx.control}${path}`, { headers: { ...withKey, ...headers } });
        assertSecretProblem({
          status: res.status,
          contentType: res.headers.get('content-type') ?? '',
          body: await res.text(),
        });
      }
    }
    const table = await fetch(`${nginx.control}/_versionary/nginx/table`, {
      headers: { 'x-versionary-secret': secret },
    });
    assert.equal(table.status, 200);
    assert.equal(((await table.json()) as { format: number }).format, 1);
    const auth = await fetch(`${nginx.control}/_versionary/nginx/auth`, {
      headers: { ...withKey, 'x-versionary-secret': secret },
    });
    assert.equal(auth.status, 200);
    assert.equal(((await auth.json()) as { client: string }).client, 'admin');
    // nginx itself sends it: a key it has never seen is checked through the control plane.
    const unknown = await fetch(`${nginx.base}/api/v2/users/1`, { headers: { authorization: 'Bearer vk_never_seen' } });
    assert.equal(unknown.status, 401);
    assert.equal(((await unknown.json()) as { code: string }).code, 'UNAUTHENTICATED');
  });

  it('sends no method or path override to the upstream', async () => {
    const conf = readFileSync(join(nginx.out, 'versionary.conf'), 'utf8');
    for (const name of pathOverrides) assert.match(conf, new RegExp(`proxy_set_header ${name} "";`), name);
    const overrides = {
      'X-HTTP-Method-Override': 'DELETE',
      'X-HTTP-Method': 'DELETE',
      'X-Method-Override': 'DELETE',
      'X-Original-URL': '/api/v1/users/1',
      'X-Rewrite-URL': '/api/v1/users/1',
    };
    assert.deepEqual(
      Object.keys(overrides)
        .map((n) => n.toLowerCase())
        .sort(),
      [...pathOverrides].sort(),
    );
    const res = await fetch(`${nginx.base}/api/v2/echo`, { headers: { ...withKey, ...overrides } });
    assert.equal(res.status, 200);
    const echo = (await res.json()) as { method: string; path: string; headers: Record<string, string> };
    assert.equal(echo.method, 'GET');
    assert.equal(echo.path, '/api/v2/echo');
    for (const name of pathOverrides) assert.equal(echo.headers[name], undefined, name);
    assert.ok(echo.headers['x-forwarded-for'], 'the headers nginx sets still arrive');
  });
});

describe("nginx's problems and usage lines", () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, ...scenario({ rateLimit: 2 }) });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('writes problem bodies with their slashes as they are', async () => {
    const res = await fetch(`${nginx.base}/api/v1/slow`, { headers: withKey });
    assert.equal(res.status, 410);
    const body = await res.text();
    assert.ok(!body.includes('\\/'), body);
    const problem = JSON.parse(body) as { type: string; instance: string };
    assert.match(problem.type, /\//);
    assert.equal(problem.instance, '/api/v1/slow');
    // A value put in a text per request (the version's name from the path) keeps its slashes too.
    const unknown = await fetch(`${nginx.base}/api/v9/a/b`, { headers: withKey });
    const text = await unknown.text();
    assert.ok(!text.includes('\\/'), text);
    assert.equal((JSON.parse(text) as { instance: string }).instance, '/api/v9/a/b');
  });

  it("names the client in a 429's usage counter", async () => {
    let limited = false;
    for (let i = 0; i < 10 && !limited; i++)
      limited = (await fetch(`${nginx.base}/api/v2/users/1`, { headers: withKey })).status === 429;
    assert.ok(limited, 'no 429 in 10 calls at 2 a minute');
    await eventually(async () => nginx.usage().some((l) => l.status === 429), 5000);
    const refused = nginx.usage().filter((l) => l.status === 429);
    assert.ok(refused.length > 0);
    for (const line of refused) assert.equal(line.client, 'admin', JSON.stringify(line));
  });
});

describe('the documented start: versionary nginx renders, the control plane reads its secret (--nginx-out)', () => {
  let python: PythonUpstream;
  const children: ChildProcess[] = [];
  let dir = '';
  before(async () => {
    requireNginx();
    python = await startPythonUpstream();
  });
  after(async () => {
    for (const child of children.reverse())
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    await python?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API with keys, and pushes to the socket of the rendered folder', async () => {
    const files = writeGatewayFiles({ upstream: python.url });
    dir = files.dir;
    // nginx's workers run as nobody under root: they must reach the rendered files.
    chmodSync(dir, 0o755);
    const [listen, controlPort] = [await freePort(), await freePort()];
    const out = join(dir, 'nginx');
    const render = await runCliProcess(
      ['nginx', '--out', out, '--listen', String(listen), '--control', `http://127.0.0.1:${controlPort}`],
      { cwd: dir, env: files.env },
    );
    assert.equal(render.code, 0, render.stderr);
    assert.ok(render.stdout.includes(`${secretFileOf(out)} (kept when rendered again)`), render.stdout);
    const secret = readFileSync(secretFileOf(out), 'utf8').trim();
    const bin = new URL('../../bin/versionary.js', import.meta.url).pathname;
    const control = spawn(process.execPath, [bin, 'gateway', '--control-plane', '--nginx-out', out], {
      env: { ...process.env, ...files.env, PORT: String(controlPort), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    children.push(control);
    await eventually(
      () =>
        fetch(`http://127.0.0.1:${controlPort}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
    );
    const nginx = spawn('/usr/sbin/nginx', ['-p', out, '-c', 'nginx.conf', '-g', 'daemon off;'], { stdio: 'ignore' });
    children.push(nginx);
    const base = `http://127.0.0.1:${listen}`;
    await eventually(
      () =>
        fetch(`${base}/livez`).then(
          () => true,
          () => false,
        ),
      15_000,
    );
    const res = await fetch(`${base}/api/v2/users/1`, { headers: withKey });
    assert.equal(res.status, 200, await res.text());
    // The control plane's push reached nginx: its table is in force, by its digest.
    await eventually(async () => {
      const state = await push(pushSocketOf(out), 'GET', {
        path: '/state',
        headers: { 'x-versionary-secret': secret },
      });
      return state.status === 200 && typeof (JSON.parse(state.body) as { digest?: string }).digest === 'string';
    }, 10_000);
    assert.equal(readFileSync(secretFileOf(out), 'utf8').trim(), secret, 'the control plane kept the rendered secret');
  });
});
