import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { serviceSettings } from '../../src/loop/settings.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const deprecatedV1 = {
  v1: { deprecatedAt: iso(Date.now() - 10 * day), sunsetAt: iso(Date.now() + 200 * day), replacement: 'v2' },
};

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: admin, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('gateway: the loop for the proxied API', () => {
  let python: PythonUpstream;
  let smtp: SmtpCatcher;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    smtp = await startSmtpCatcher();
    gateway = await startTestGateway({
      upstream: python.url,
      file: { versions: deprecatedV1, publicUrl: 'https://api.example.test', notices: { intervalSeconds: 0 } },
      env: {
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'API team <api@example.test>',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      },
    });
  });
  after(async () => {
    await gateway.stop();
    await smtp.close();
    await python.stop();
  });

  it('counts usage per client, and mails the client that still calls v1 its own calls', async () => {
    const acme = await post<{ id: string }>(`${gateway.base}/admin/v1/clients`, {
      name: 'Acme',
      contacts: ['dev@acme.test'],
    });
    const quiet = await post<{ id: string }>(`${gateway.base}/admin/v1/clients`, {
      name: 'Quiet',
      contacts: ['dev@quiet.test'],
    });
    const acmeKey = (
      await post<{ key: string }>(`${gateway.base}/admin/v1/api-keys`, {
        name: 'acme-sync',
        roles: ['read'],
        clientId: acme.id,
      })
    ).key;
    const quietKey = (
      await post<{ key: string }>(`${gateway.base}/admin/v1/api-keys`, {
        name: 'quiet',
        roles: ['read'],
        clientId: quiet.id,
      })
    ).key;
    for (let i = 0; i < 3; i++)
      assert.equal(
        (
          await fetch(`${gateway.base}/api/v1/users/${1 + (i % 2)}`, {
            headers: { authorization: `Bearer ${acmeKey}`, 'user-agent': 'acme-sync/2.1' },
          })
        ).status,
        200,
      );
    assert.equal(
      (await fetch(`${gateway.base}/api/v1/users`, { headers: { authorization: `Bearer ${acmeKey}` } })).status,
      200,
    );
    assert.equal(
      (await fetch(`${gateway.base}/api/v2/users/1`, { headers: { authorization: `Bearer ${quietKey}` } })).status,
      200,
    );
    const usage = (await (
      await fetch(`${gateway.base}/admin/v1/usage/endpoints?version=v1`, { headers: admin })
    ).json()) as { data: Array<{ clientId: string; endpoint: string; calls: number }> };
    const mine = usage.data
      .filter((row) => row.clientId === acme.id)
      .map((row) => `${row.endpoint} ${row.calls}`)
      .sort();
    assert.deepEqual(mine, ['GET /users 1', 'GET /users/{id} 3'], "counted by the document's path templates");
    assert.equal(
      usage.data.some((row) => row.clientId === quiet.id),
      false,
      'the current version is not counted',
    );
    // Per operation, every version counts: the same plugin option as the service's, through the proxy.
    const operations = (await (
      await fetch(`${gateway.base}/admin/v1/usage/operations`, { headers: admin })
    ).json()) as { data: Array<{ clientId: string; version: string; endpoint: string; calls: number }> };
    assert.deepEqual(
      operations.data
        .filter((row) => row.clientId === acme.id || row.clientId === quiet.id)
        .map((row) => `${row.clientId === acme.id ? 'acme' : 'quiet'} ${row.version} ${row.endpoint} ${row.calls}`),
      ['acme v1 GET /users 1', 'acme v1 GET /users/{id} 3', 'quiet v2 GET /users/{id} 1'],
    );
    const run = await post<{ sent: number }>(`${gateway.base}/admin/v1/notices/run`, {});
    assert.equal(run.sent, 1);
    assert.deepEqual(smtp.messages.map((m) => m.envelopeTo).flat(), ['dev@acme.test']);
    const text = smtp.messages[0]!.text ?? '';
    assert.match(text, /- GET \/users\/\{id\}: 3 calls, .* key acme-sync, User-Agent acme-sync\/2\.1/);
    assert.match(text, /Migration guide: https:\/\/api\.example\.test\/api\/versions\/v1\/migration-guide/);
  });

  it('writes a migration guide from the two documents, naming the changed fields', async () => {
    const guide = await fetch(`${gateway.base}/api/versions/v1/migration-guide`, {
      headers: { accept: 'text/markdown' },
    });
    assert.equal(guide.status, 200);
    const text = await guide.text();
    assert.match(text, /v1.*v2/);
    assert.match(text, /firstName|name/);
  });

  it('serves the lifecycle document, the changelog feed and the docs pages from the configured documents', async () => {
    const versions = (await (await fetch(`${gateway.base}/api/versions`)).json()) as {
      versions: Array<{ name: string; state: string }>;
    };
    assert.deepEqual(
      versions.versions.map((v) => v.name),
      ['v1', 'v2'],
    );
    assert.notEqual(versions.versions[0]!.state, 'active');
    assert.equal(versions.versions[1]!.state, 'active');
    assert.equal((await fetch(`${gateway.base}/changelog.json`)).status, 200);
    const docs = await fetch(`${gateway.base}/docs/v1`, { headers: { accept: 'text/html' } });
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /deprecated/i);
  });

  it("shows none of the reference service's release dates or title, and calls no later version the first", async () => {
    // The config names v1 and v2 (as the reference service does) with no releasedAt: no date is shown.
    const versions = (await (await fetch(`${gateway.base}/api/versions`)).json()) as {
      versions: Array<{ name: string; releasedAt: string | null }>;
    };
    assert.deepEqual(
      versions.versions.map((v) => v.releasedAt),
      [null, null],
    );
    const index = await (await fetch(`${gateway.base}/docs`, { headers: { accept: 'text/html' } })).text();
    assert.doesNotMatch(index, /users and posts|2025-01-15|2026-03-02/i);
    const changelog = await (
      await fetch(`${gateway.base}/docs/changelog`, { headers: { accept: 'text/html' } })
    ).text();
    assert.doesNotMatch(changelog, /v2 is the first version|users and posts/i);
  });
});

describe('gateway: identify', () => {
  let python: PythonUpstream;
  before(async () => {
    python = await startPythonUpstream();
  });
  after(async () => {
    await python.stop();
  });

  it('takes the client from a trusted header, counts usage by it, and forwards the header', async () => {
    const gateway = await startTestGateway({
      upstream: python.url,
      gateway: { identify: { header: 'x-client-id' } },
      file: { versions: deprecatedV1 },
    });
    try {
      const echo = (await (
        await fetch(`${gateway.base}/api/v1/echo`, { headers: { 'x-client-id': 'team-billing' } })
      ).json()) as { headers: Record<string, string> };
      assert.equal(echo.headers['x-client-id'], 'team-billing');
      assert.equal(echo.headers['x-versionary-client'], 'team-billing');
      assert.equal((await fetch(`${gateway.base}/api/v1/echo`)).status, 401, 'no header, no key: 401');
      assert.equal(
        (await fetch(`${gateway.base}/admin/v1/clients`, { headers: { 'x-client-id': 'admin' } })).status,
        401,
        'the header never opens the management API',
      );
      const usage = (await (
        await fetch(`${gateway.base}/admin/v1/usage/clients?version=v1`, { headers: admin })
      ).json()) as { data: Array<{ clientId: string; calls: number }> };
      assert.deepEqual(
        usage.data.map((r) => `${r.clientId} ${r.calls}`),
        ['team-billing 1'],
      );
    } finally {
      await gateway.stop();
    }
  });

  it('checks a JWT, takes the client from its claim, and forwards the token unchanged', async () => {
    const secret = 'jwt-secret-0123456789-0123456789-abcdef';
    const gateway = await startTestGateway({
      upstream: python.url,
      gateway: { identify: { jwt: true } },
      env: { VERSIONARY_JWT_SECRET: secret },
    });
    try {
      const token = await new SignJWT({ client_id: 'mobile-app' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-7')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      const echo = (await (
        await fetch(`${gateway.base}/api/v2/echo`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { headers: Record<string, string> };
      assert.equal(echo.headers.authorization, `Bearer ${token}`);
      assert.equal(echo.headers['x-versionary-client'], 'mobile-app');
      const forged = await fetch(`${gateway.base}/api/v2/echo`, {
        headers: { authorization: `Bearer ${token.slice(0, -4)}AAAA` },
      });
      assert.equal(forged.status, 401);
      assert.match(forged.headers.get('www-authenticate') ?? '', /invalid_token/);
    } finally {
      await gateway.stop();
    }
  });
});

describe('versionary gateway --help', () => {
  it('documents every option of the gateway section and the environment', () => {
    const run = spawnSync(
      process.execPath,
      [new URL('../../bin/versionary.js', import.meta.url).pathname, 'gateway', '--help'],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    for (const word of [
      'prefix',
      'vendor',
      'title',
      'versions',
      'upstream',
      'openapi',
      'identify',
      'apiKeys',
      'header',
      'jwt',
      'clientHeader',
      'timeoutMs',
      'PORT',
      'HOST',
      'DATABASE_URL',
      'LOG_LEVEL',
    ]) {
      assert.ok(run.stdout.includes(word), `--help mentions ${word}`);
    }
    // Every config-file key a feature owns, and every variable the server reads, as the code declares them.
    for (const key of [...Object.values(serviceSettings).flatMap((s) => s.keys), 'bodyLimit'])
      assert.ok(run.stdout.includes(key), `--help mentions the config key ${key}`);
    const root = new URL('../../src/', import.meta.url).pathname;
    const sources = ['kernel', 'loop', 'reference', 'gateway', 'compose', 'storage'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
        .map((file) => readFileSync(join(root, dir, file), 'utf8')),
    );
    // A name followed by digits is a warning code (VERSIONARY_DEP002), not a variable.
    const read = new Set(sources.flatMap((text) => text.match(/VERSIONARY_[A-Z_]*[A-Z]\b/g) ?? []));
    assert.ok(read.size > 20, `found the variables the server reads (${read.size})`);
    for (const name of read) {
      // `VERSIONARY_JWT` alone is the prefix in a message, not a variable.
      assert.ok(name === 'VERSIONARY_JWT' || new RegExp(`\\b${name}\\b`).test(run.stdout), `--help mentions ${name}`);
    }
  });
});
