import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { test } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testConsumerId } from '../support/test-app.ts';

const none = { authorization: '' };

test('encoded spellings of protected paths still need credentials', async () => {
  const t = await createTestApp();
  const cases: Array<[string, string, object?]> = [
    ['GET', '/%61dmin/v1/api-keys'],
    ['POST', '/%61dmin/v1/api-keys', { name: 'x', roles: ['admin'] }],
    ['GET', '/%61dmin/v1/versions/v1'],
    ['GET', '/%61pi/v1/users'],
    ['GET', '/api/%761/users'],
    ['POST', '/%61pi/v2/users', { name: 'x' }],
    ['DELETE', '/api/%762/users/1'],
    ['GET', '/api/v2/%75sers'],
  ];
  for (const [method, url, payload] of cases) {
    // The router decodes the spelling and finds the protected route, which needs credentials.
    const res = await t.app.inject({ method: method as 'GET', url, headers: none, ...(payload ? { payload } : {}) });
    assertProblem(res, { status: 401, code: 'UNAUTHENTICATED' });
    assert.match(String(res.headers['www-authenticate']), /^Bearer/, `${method} ${url}`);
  }
  assert.deepEqual(
    (await t.storage.apiKeys.list()).map((k) => k.id),
    [testConsumerId],
    'no key was created',
  );
  assert.equal(await t.storage.users.count(), 0);
  await t.close();
});

test('an absolute-form request target still needs credentials', async () => {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const res = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('GET http://localhost/admin/v1/api-keys HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    );
    let data = '';
    socket.on('data', (d) => {
      data += String(d);
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  // The absolute form routes to the admin route, which needs credentials.
  assert.match(res.split('\r\n')[0] ?? '', /^HTTP\/1\.1 401 /);
  assert.equal((JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)) as { code: string }).code, 'UNAUTHENTICATED');
  await t.close();
});
