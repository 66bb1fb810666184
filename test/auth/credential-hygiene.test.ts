import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testAdminKey } from '../support/test-app.ts';

describe('credential headers', () => {
  it('answer 400 to a repeated Authorization or X-API-Key header, whichever comes first', async () => {
    const t = await createTestApp();
    for (const headers of <OutgoingHttpHeaders[]>[
      {
        authorization: [
          adminHeaders.authorization,
          'Bearer vk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        ],
      },
      {
        authorization: [
          'Bearer vk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
          adminHeaders.authorization,
        ],
      },
      { 'x-api-key': [testAdminKey, testAdminKey] },
    ]) {
      const res = await t.app.inject({ url: '/api/v2/users', headers });
      const problem = assertProblem(res, { status: 400, code: 'MALFORMED_REQUEST' });
      assert.match(problem.detail, /Send one (Authorization|X-API-Key) header, not 2/);
    }
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: adminHeaders })).statusCode,
      200,
      'one header is fine',
    );
    await t.close();
  });
});

describe('logged URLs', () => {
  it('never carry a credential sent in the query string', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(line) },
    });
    const secrets = ['vk_0123456789abcdef.SECRET1', 'SECRET2', 'SECRET3', 'SECRET4', 'SECRET5', 'SECRET6', 'SECRET7'];
    const query = ['api_key', 'ApiKey', 'KEY', 'token', 'access_token', 'JWT', 'secret']
      .map((name, i) => `${name}=${encodeURIComponent(secrets[i]!)}`)
      .join('&');
    await t.app.inject({ url: `/api/v2/users?limit=2&${query}` });
    await t.close();
    const logged = lines.map((line) => JSON.parse(line) as { req?: { url?: string } });
    const urls = logged.flatMap((l) => (l.req?.url ? [l.req.url] : []));
    assert.ok(urls.length > 0, 'the request was logged with its URL');
    assert.ok(
      urls.every((url) => url.startsWith('/api/v2/users?limit=2&api_key=REDACTED&ApiKey=REDACTED')),
      urls.join('\n'),
    );
    for (const secret of secrets) assert.ok(!lines.join('').includes(secret.slice(-7)), `${secret} not in the logs`);
  });
});
