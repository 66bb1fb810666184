import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { test } from 'node:test';
import { createTestApp } from '../support/test-app.ts';

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
    const res = await t.app.inject({ method: method as 'GET', url, headers: none, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode === 401 || res.statusCode === 404, `${method} ${url} → ${res.statusCode}`);
  }
  assert.equal((await t.storage.apiKeys.list()).length, 0);
  assert.equal(await t.storage.users.count(), 0);
  await t.close();
});

test('an absolute-form request target still needs credentials', async () => {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const status = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET http://localhost/admin/v1/api-keys HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
    let data = '';
    socket.on('data', (d) => { data += String(d); });
    socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
  assert.match(status, /^HTTP\/1\.1 (401|404)/);
  await t.close();
});
