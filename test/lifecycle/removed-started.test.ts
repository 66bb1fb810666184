import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';

const admin = { authorization: 'Bearer test-admin-key-0123456789' };

// The spec's lifecycle table: "Sunset Window | reaching the sunset date | the sunset date has
// passed | Removed | requests receive 410 or 404 (see Errors)". The removed gate is the first
// phase of the request pipeline: it answers before any credential is read or counted.
describe('a version past its sunset, over the socket of the started service', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService({
      file: { versions: { v1: { deprecatedAt: '2020-01-01T00:00:00Z', sunsetAt: '2021-01-01T00:00:00Z' } } },
    });
  });
  after(async () => {
    await service.stop();
  });

  it('answers 410 as a problem on every path and method of the version, with or without credentials', async () => {
    for (const [method, path, headers] of [
      ['GET', '/api/v1/users', {}],
      ['GET', '/api/v1/users', admin],
      ['GET', '/api/v1/no-such-path', {}],
      ['POST', '/api/v1/users', { ...admin, 'content-type': 'application/json' }],
    ] as const) {
      const res = await fetch(service.base + path, {
        method,
        headers,
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      const label = `${method} ${path} ${headers === admin ? 'with' : 'without'} credentials`;
      assert.equal(res.status, 410, label);
      assert.match(String(res.headers.get('content-type')), /^application\/problem\+json/, label);
      assert.equal(((await res.json()) as { code: string }).code, 'VERSION_REMOVED', label);
      assert.equal(res.headers.get('www-authenticate'), null, `${label}: not an authentication challenge`);
      assert.equal(res.headers.get('ratelimit'), null, `${label}: refused before any limit counts it`);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', label);
    }
    const head = await fetch(`${service.base}/api/v1/users`, { method: 'HEAD' });
    assert.equal(head.status, 410);
  });

  it('keeps the version document readable for migration, and serves the current version', async () => {
    const document = await fetch(`${service.base}/api/v1/openapi.json`);
    assert.equal(document.status, 200);
    await document.arrayBuffer();
    const current = await fetch(`${service.base}/api/v2/users`, { headers: admin });
    assert.equal(current.status, 200);
    assert.equal(current.headers.get('deprecation'), null);
    assert.ok(current.headers.get('ratelimit'), 'the current version is limited as usual');
    await current.arrayBuffer();
  });
});
