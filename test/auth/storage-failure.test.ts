import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Storage } from '../../src/kernel/ports/index.ts';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const failingKeys = (storage: Storage): Storage => ({
  ...storage,
  apiKeys: {
    ...storage.apiKeys,
    find: async () => {
      throw new Error('SQLITE_BUSY: database is locked');
    },
  },
});
const someKey = `vk_0123456789abcdef.${'A'.repeat(43)}`;

describe('a key store that fails during authentication', () => {
  it('answers 503 STORAGE_UNAVAILABLE with Retry-After, never 401, and logs it', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      wrapStorage: failingKeys,
      env: { LOG_LEVEL: 'error' },
      logStream: { write: (line) => void lines.push(line) },
    });
    for (const headers of [{ authorization: `Bearer ${someKey}` }, { 'x-api-key': someKey }]) {
      const res = await t.app.inject({ url: '/api/v2/users', headers });
      const problem = assertProblem(res, { status: 503, code: 'STORAGE_UNAVAILABLE' });
      assert.match(String(res.headers['retry-after']), /^[1-9][0-9]*$/);
      assert.equal(res.headers['www-authenticate'], undefined, 'not an authentication challenge');
      assert.ok(!res.body.includes('SQLITE'), 'no internals in the body');
      assert.match(problem.detail, /storage is unavailable/);
    }
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
    const failures = logged.filter((l) => l.msg.includes('storage unavailable'));
    assert.equal(failures.length, 2, 'one log line per failed check');
    assert.ok(failures.every((l) => l.level >= 50 && l.err?.message.includes('SQLITE_BUSY')));
    await t.close();
  });

  it('does not change the answer to requests without credentials or with the environment admin key', async () => {
    const t = await createTestApp({ wrapStorage: failingKeys, anonymous: true });
    assertProblem(await t.app.inject({ url: '/api/v2/users' }), { status: 401, code: 'UNAUTHENTICATED' });
    assert.equal((await t.app.inject({ url: '/api/versions' })).statusCode, 200);
    await t.close();
  });
});
