import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyPairKeyObjectResult } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportJWK, SignJWT } from 'jose';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const secret = 'a-test-secret-that-is-32-chars-long!!';
const seconds = Math.floor(testEpoch / 1000);
const sign = (claims: Record<string, unknown>, options: { alg?: string; key?: unknown } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + 600)
    .sign((options.key ?? new TextEncoder().encode(secret)) as Uint8Array);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('HS256 tokens', () => {
  const env = {
    VERSIONARY_JWT_SECRET: secret,
    VERSIONARY_JWT_ISSUER: 'https://issuer.test',
    VERSIONARY_JWT_AUDIENCE: 'versionary',
  };
  const base = { iss: 'https://issuer.test', aud: 'versionary' };

  it('map sub to the client and scope to roles', async () => {
    const t = await createTestApp({ env });
    const token = await sign({ ...base, sub: 'client-7', scope: 'read write' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(token),
      payload: { name: 'x' },
    });
    assert.equal(created.statusCode, 201);
    const reader = await sign({ ...base, client_id: 'svc', scope: 'read' });
    assert.equal((await t.app.inject({ url: '/api/v1/users', headers: bearer(reader) })).statusCode, 200);
    assertProblem(await t.app.inject({ method: 'DELETE', url: '/api/v1/users/1', headers: bearer(reader) }), {
      status: 403,
    });
    const usage = (await t.app.inject({ url: '/admin/v1/versions/v1/calls', headers: adminHeaders })).json();
    // client_id names the client calls are counted for; without it, the token's subject is the identifier.
    assert.deepEqual([...new Set(usage.data.map((c: { clientId: string }) => c.clientId))].sort(), [
      'jwt:client-7',
      'svc',
    ]);
    await t.close();
  });

  it('refuse tampered, expired, not-yet-valid, wrong-issuer, wrong-audience and alg:none tokens with 401', async () => {
    const t = await createTestApp({ env });
    const good = await sign({ ...base, sub: 'c', scope: 'read' });
    const [h, p] = good.split('.');
    const tampered = `${h}.${p}.${'A'.repeat(43)}`;
    const otherPayload = `${h}.${Buffer.from(JSON.stringify({ ...base, sub: 'c', scope: 'admin', exp: seconds + 600 })).toString('base64url')}.${good.split('.')[2]}`;
    const expired = await new SignJWT({ ...base, sub: 'c', scope: 'read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(seconds - 120)
      .sign(new TextEncoder().encode(secret));
    const early = await new SignJWT({ ...base, sub: 'c', scope: 'read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(seconds + 120)
      .setExpirationTime(seconds + 600)
      .sign(new TextEncoder().encode(secret));
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...base, sub: 'c', scope: 'admin', exp: seconds + 600 })).toString('base64url')}.`;
    const issuer = await sign({ iss: 'https://evil.test', aud: 'versionary', sub: 'c', scope: 'read' });
    const audience = await sign({ iss: 'https://issuer.test', aud: 'other', sub: 'c', scope: 'read' });
    const hs512 = await new SignJWT({ ...base, sub: 'c', scope: 'read' })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime(seconds + 600)
      .sign(new TextEncoder().encode(secret));
    for (const [name, token] of Object.entries({
      tampered,
      otherPayload,
      expired,
      early,
      none,
      issuer,
      audience,
      hs512,
    })) {
      const res = await t.app.inject({ url: '/api/v2/users', headers: bearer(token) });
      assert.equal(res.statusCode, 401, `${name}: ${res.statusCode}`);
      assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    }
    const skewed = await new SignJWT({ ...base, sub: 'c', scope: 'read' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(seconds - 10)
      .sign(new TextEncoder().encode(secret));
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: bearer(skewed) })).statusCode,
      200,
      'within 30 s of clock skew',
    );
    await t.close();
  });
});

describe('asymmetric tokens', () => {
  for (const [alg, type, options] of [
    ['RS256', 'rsa', { modulusLength: 2048 }],
    ['ES256', 'ec', { namedCurve: 'P-256' }],
    ['EdDSA', 'ed25519', {}],
  ] as const) {
    it(`verify ${alg} with a PEM public key and refuse HS256 signed with that PEM`, async () => {
      const { publicKey, privateKey } = generateKeyPairSync(
        type as 'rsa',
        options as never,
      ) as unknown as KeyPairKeyObjectResult;
      const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
      const t = await createTestApp({ env: { VERSIONARY_JWT_PUBLIC_KEY: '/key.pem' }, files: { '/key.pem': pem } });
      const token = await sign({ sub: 'c', scope: 'read' }, { alg, key: privateKey });
      assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(token) })).statusCode, 200);
      const confused = await sign({ sub: 'c', scope: 'admin' }, { alg: 'HS256', key: new TextEncoder().encode(pem) });
      assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(confused) })).statusCode, 401);
      await t.close();
    });
  }

  it('verify against a JWKS file', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const t = await createTestApp({
      env: { VERSIONARY_JWT_JWKS: '/jwks.json' },
      files: { '/jwks.json': JSON.stringify({ keys: [jwk] }) },
    });
    const token = await new SignJWT({ sub: 'c', scope: 'read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setExpirationTime(seconds + 600)
      .sign(privateKey);
    assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(token) })).statusCode, 200);
    await t.close();
  });
});

describe('a JWKS URL', () => {
  it('is fetched over HTTP and verifies ES256 tokens', async () => {
    const { createServer } = await import('node:http');
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' };
    let fetched = 0;
    const server = createServer((_req, res) => {
      fetched++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`;
    try {
      const t = await createTestApp({ env: { VERSIONARY_JWT_JWKS: url } });
      const token = await new SignJWT({ sub: 'remote', scope: 'read' })
        .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
        .setExpirationTime(seconds + 600)
        .sign(privateKey);
      assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(token) })).statusCode, 200);
      const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const forged = await new SignJWT({ sub: 'remote', scope: 'admin' })
        .setProtectedHeader({ alg: 'ES256', kid: 'remote-1' })
        .setExpirationTime(seconds + 600)
        .sign(other.privateKey);
      assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(forged) })).statusCode, 401);
      assert.ok(fetched >= 1);
      await t.close();
    } finally {
      server.close();
    }
  });
});

describe('token lifetime', () => {
  const env = { VERSIONARY_JWT_SECRET: secret };
  const key = new TextEncoder().encode(secret);
  const raw = (claims: Record<string, unknown>) =>
    new SignJWT({ sub: 'c', scope: 'read', ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(key);
  const status = async (t: Awaited<ReturnType<typeof createTestApp>>, token: string) =>
    (await t.app.inject({ url: '/api/v2/users', headers: bearer(token) })).statusCode;

  it('refuses a token without exp, however fresh', async () => {
    const t = await createTestApp({ env });
    const res = await t.app.inject({ url: '/api/v2/users', headers: bearer(await raw({ iat: seconds })) });
    assertProblem(res, { status: 401, code: 'UNAUTHENTICATED' });
    assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    assert.equal(
      await status(t, await raw({ iat: seconds, exp: seconds + 600 })),
      200,
      'the same token with exp is accepted',
    );
    await t.close();
  });

  it('refuses a token older or longer-lived than the maximum age (24 hours by default)', async () => {
    const t = await createTestApp({ env });
    assert.equal(await status(t, await raw({ iat: seconds - 25 * 3600, exp: seconds + 600 })), 401, 'issued 25 h ago');
    assert.equal(await status(t, await raw({ exp: seconds + 48 * 3600 })), 401, 'no iat, expires in 48 h');
    assert.equal(await status(t, await raw({ iat: seconds - 23 * 3600, exp: seconds + 600 })), 200, 'issued 23 h ago');
    assert.equal(await status(t, await raw({ exp: seconds + 23 * 3600 })), 200, 'no iat, expires in 23 h');
    await t.close();
  });

  it('takes the maximum age and the clock skew from the environment', async () => {
    const t = await createTestApp({
      env: { ...env, VERSIONARY_JWT_MAX_TOKEN_AGE: String(72 * 3600), VERSIONARY_JWT_CLOCK_SKEW: '0' },
    });
    assert.equal(
      await status(t, await raw({ iat: seconds - 48 * 3600, exp: seconds + 48 * 3600 })),
      200,
      'within 72 h',
    );
    assert.equal(await status(t, await raw({ iat: seconds, exp: seconds - 10 })), 401, 'no skew: expired 10 s ago');
    await t.close();
    await assert.rejects(
      createTestApp({ env: { ...env, VERSIONARY_JWT_MAX_TOKEN_AGE: 'a day', VERSIONARY_JWT_CLOCK_SKEW: '3600' } }),
      (error: Error & { detail?: string }) => {
        assert.match(String(error.detail), /VERSIONARY_JWT_MAX_TOKEN_AGE must be a whole number of seconds/);
        assert.match(String(error.detail), /VERSIONARY_JWT_CLOCK_SKEW must be a whole number of seconds from 0 to 300/);
        return true;
      },
    );
  });
});

describe('issued-at', () => {
  it('refuses a token issued in the future beyond the clock skew', async () => {
    const t = await createTestApp({ env: { VERSIONARY_JWT_SECRET: secret } });
    const key = new TextEncoder().encode(secret);
    const at = (iat: number) =>
      new SignJWT({ sub: 'c', scope: 'read', iat, exp: seconds + 3600 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const future = await t.app.inject({ url: '/api/v2/users', headers: bearer(await at(seconds + 600)) });
    assertProblem(future, { status: 401, code: 'UNAUTHENTICATED' });
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: bearer(await at(seconds + 20)) })).statusCode,
      200,
      'within 30 s of skew',
    );
    await t.close();
  });
});

describe('two tenants sharing a JWT subject', () => {
  const env = {
    VERSIONARY_JWT_SECRET: secret,
    VERSIONARY_JWT_ISSUER: 'https://issuer.test',
    VERSIONARY_JWT_AUDIENCE: 'versionary',
  };
  const base = { iss: 'https://issuer.test', aud: 'versionary', sub: 'ci-pipeline', scope: 'read write' };

  it('keep their own idempotency records: the same key and body from each creates two users', async () => {
    const t = await createTestApp({ env });
    const [a, b] = [await sign({ ...base, client_id: 'tenant-a' }), await sign({ ...base, client_id: 'tenant-b' })];
    const post = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { ...bearer(token), 'idempotency-key': 'deploy-42' },
        payload: { name: 'deployed' },
      });
    const first = await post(a);
    const second = await post(b);
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers['idempotent-replayed'], undefined, "B is not served A's record");
    assert.notEqual(second.json().id, first.json().id, "B's own write happened");
    // Each tenant's own retry is still a replay.
    const again = await post(b);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().id, second.json().id);
    await t.close();
  });

  it('keep their own rate-limit windows', async () => {
    const t = await createTestApp({
      env: { ...env, VERSIONARY_CONFIG: '/c.json' },
      files: { '/c.json': JSON.stringify({ rateLimit: { max: 3, windowSeconds: 60 } }) },
    });
    const [a, b] = [await sign({ ...base, client_id: 'tenant-a' }), await sign({ ...base, client_id: 'tenant-b' })];
    for (let i = 0; i < 3; i++)
      assert.equal((await t.app.inject({ url: '/api/v2/users', headers: bearer(a) })).statusCode, 200);
    assertProblem(await t.app.inject({ url: '/api/v2/users', headers: bearer(a) }), { status: 429 });
    const other = await t.app.inject({ url: '/api/v2/users', headers: bearer(b) });
    assert.equal(other.statusCode, 200, "A's spent budget is not B's");
    assert.match(String(other.headers.ratelimit), /;r=2;/, 'B has spent one of its own 3');
    await t.close();
  });
});
