import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('echoed input is bounded', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const bounded = (detail: string, marker: string) => {
    assert.ok(detail.length < 500, `detail is ${detail.length} characters`);
    assert.ok(detail.includes(`${marker.repeat(10)}…`), 'the echo ends in an ellipsis');
  };

  it('cuts a 60 kB Accept version at 200 characters with an ellipsis', async () => {
    for (const url of ['/api/users', '/api/v2/users']) {
      const res = await t.app.inject({ url, headers: { accept: `application/json; version=${'9x'.repeat(30_000)}` } });
      const problem = assertProblem(res, { status: 400, code: 'VERSION_MISSING' });
      bounded(problem.detail, '9x');
      assert.ok(res.body.length < 1500, `body is ${res.body.length} bytes`);
    }
  });

  it('cuts long paths, version numbers and unknown field names', async () => {
    const path = assertProblem(await t.app.inject({ url: `/${'p'.repeat(5000)}` }), { status: 404 });
    bounded(path.detail, 'p');
    const version = assertProblem(await t.app.inject({ url: `/api/v${'7'.repeat(5000)}/users` }), {
      status: 404,
      code: 'VERSION_UNKNOWN',
    });
    bounded(version.detail, '7');
    const field = assertProblem(
      await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'n', ['f'.repeat(5000)]: 1 } }),
      { status: 400, code: 'VALIDATION_FAILED' },
    );
    bounded(field.detail, 'f');
    assert.ok(field.errors!.every((e) => e.pointer.length <= 201));
  });
});

describe('two versions in one media type', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  for (const accept of [
    'application/json; version=2; version=1',
    'application/json; version=1; version=2',
    'application/vnd.versionary.v2+json; version=1',
  ]) {
    it(`answer 400 to "${accept}", path or no path`, async () => {
      for (const url of ['/api/users', '/api/v1/users', '/api/v2/users']) {
        const problem = assertProblem(await t.app.inject({ url, headers: { accept } }), {
          status: 400,
          code: 'VERSION_CONFLICT',
        });
        assert.deepEqual(problem.supportedVersions, ['v1', 'v2']);
      }
    });
  }

  it('accept the same version named twice', async () => {
    assert.equal(
      (await t.app.inject({ url: '/api/users', headers: { accept: 'application/json; version=2; version=2' } }))
        .statusCode,
      200,
    );
  });
});
