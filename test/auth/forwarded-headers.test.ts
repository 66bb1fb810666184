import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const config = {
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify({ rateLimit: { max: 2, windowSeconds: 60 } }) },
};
const none = { authorization: '' };

describe('X-Forwarded-For and its relatives', () => {
  it('are ignored by the per-address rate limit: a client cannot claim a fresh address', async () => {
    const t = await createTestApp(config);
    const spoofs = [
      { 'x-forwarded-for': '203.0.113.1' },
      { 'x-forwarded-for': '203.0.113.2, 198.51.100.2', 'x-real-ip': '203.0.113.3' },
      { forwarded: 'for=203.0.113.4', 'x-client-ip': '203.0.113.5', 'true-client-ip': '203.0.113.6' },
      { 'x-forwarded-for': '2001:db8::1' },
    ];
    const statuses: number[] = [];
    for (const headers of spoofs)
      statuses.push(
        (await t.app.inject({ url: '/api/v2/users', headers: { ...none, ...headers }, remoteAddress: '192.0.2.10' }))
          .statusCode,
      );
    assert.deepEqual(statuses, [401, 401, 429, 429], 'one budget for the socket address, whatever the headers say');
    const limited = await t.app.inject({
      url: '/api/v2/users',
      headers: { ...none, 'x-forwarded-for': '192.0.2.77' },
      remoteAddress: '192.0.2.10',
    });
    assertProblem(limited, { status: 429, code: 'RATE_LIMITED' });
    // Naming the limited address in a header does not spend its budget or inherit its refusal.
    assert.equal(
      (
        await t.app.inject({
          url: '/api/v2/users',
          headers: { ...none, 'x-forwarded-for': '192.0.2.10' },
          remoteAddress: '192.0.2.11',
        })
      ).statusCode,
      401,
    );
    await t.close();
  });

  it('are ignored in logs: the logged address is the socket peer', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(line) },
    });
    await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '192.0.2.20' });
    await t.close();
    const addresses = lines
      .map((l) => (JSON.parse(l) as { req?: { remoteAddress?: string } }).req?.remoteAddress)
      .filter(Boolean);
    assert.ok(addresses.length > 0);
    assert.deepEqual([...new Set(addresses)], ['192.0.2.20']);
  });
});
