import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/loop/settings.ts';
import { createTestApp, testAdminKey } from '../support/test-app.ts';
import { signIn } from './dashboard-support.ts';

const noFile = (path: string): string => {
  throw Object.assign(new Error(`no ${path}`), { code: 'ENOENT' });
};

test('VERSIONARY_PORTAL_SECRET is read once at start and must be long enough', () => {
  assert.equal(
    loadConfig({ env: { VERSIONARY_PORTAL_SECRET: 's'.repeat(32) }, readFile: noFile }).portalSecret,
    's'.repeat(32),
  );
  assert.equal(loadConfig({ env: {}, readFile: noFile }).portalSecret, undefined);
  assert.throws(
    () => loadConfig({ env: { VERSIONARY_PORTAL_SECRET: 'short', LOG_LEVEL: 'nope' }, readFile: noFile }),
    (error: Error) =>
      /VERSIONARY_PORTAL_SECRET must be at least 32 characters/.test(error.message) && /LOG_LEVEL/.test(error.message),
  );
});

test("instances sharing the portal secret accept each other's sign-ins; others do not", async () => {
  const secret = { VERSIONARY_PORTAL_SECRET: 'a-shared-portal-secret-of-32-chars!' };
  const a = await createTestApp({ anonymous: true, env: secret });
  const b = await createTestApp({ anonymous: true, env: secret });
  const c = await createTestApp({
    anonymous: true,
    env: { VERSIONARY_PORTAL_SECRET: 'another-portal-secret-of-32-chars!!' },
  });
  const cookie = await signIn(a, testAdminKey);
  assert.equal((await b.app.inject({ url: '/portal', headers: { cookie } })).statusCode, 200);
  assert.equal((await c.app.inject({ url: '/portal', headers: { cookie } })).statusCode, 303);
  await Promise.all([a.close(), b.close(), c.close()]);
});
