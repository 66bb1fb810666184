import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const removedOnly = { '/c.json': JSON.stringify({ versions: { v1: { removed: true } } }) };

describe('a config with "removed": true and no dates', () => {
  it('starts, and the version answers 410 while the next one serves', async () => {
    const t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: removedOnly });
    const gone = assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
    assert.equal(gone.replacement, 'v2');
    assert.equal((await t.app.inject({ url: '/api/v2/users' })).statusCode, 200);
    const v1 = (await t.app.inject({ url: '/api/versions' })).json().versions.find((v: { name: string }) => v.name === 'v1');
    assert.equal(v1.status, 'removed');
    await t.close();
  });
});
