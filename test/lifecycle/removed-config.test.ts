import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testEpoch } from '../support/test-app.ts';

const removedOnly = { '/c.json': JSON.stringify({ versions: { v1: { removed: true } } }) };

describe('a config with "removed": true and no dates', () => {
  it('starts, and the version answers 410 while the next one serves', async () => {
    const t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: removedOnly });
    const gone = assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
    assert.equal(gone.replacement, 'v2');
    assert.equal((await t.app.inject({ url: '/api/v2/users' })).statusCode, 200);
    const v1 = (await t.app.inject({ url: '/api/versions' }))
      .json()
      .versions.find((v: { name: string }) => v.name === 'v1');
    assert.equal(v1.status, 'removed');
    await t.close();
  });
});

describe('a config that dates only the newer version', () => {
  const file = {
    '/c.json': JSON.stringify({ versions: { v1: { removed: true }, v2: { releasedAt: '2024-03-01T00:00:00Z' } } }),
  };

  it('starts in the declared order: v1 answers 410 naming v2, v2 serves, and no release date is invented', async () => {
    const t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: file });
    const gone = assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
    assert.equal(gone.replacement, 'v2');
    assert.equal((await t.app.inject({ url: '/api/v2/users' })).statusCode, 200);
    const { versions } = (await t.app.inject({ url: '/api/versions' })).json() as {
      versions: Array<{ name: string; releasedAt: string | null }>;
    };
    assert.deepEqual(
      versions.map((v) => [v.name, v.releasedAt]),
      [
        ['v1', null],
        ['v2', '2024-03-01T00:00:00.000Z'],
      ],
    );
    await t.close();
  });

  it('refuses release dates that go back against the declared order, naming both versions', async () => {
    const backwards = {
      '/c.json': JSON.stringify({
        versions: { v1: { releasedAt: '2025-01-01T00:00:00Z' }, v2: { releasedAt: '2024-03-01T00:00:00Z' } },
      }),
    };
    await assert.rejects(
      createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: backwards }),
      /v2 is released at 2024-03-01T00:00:00\.000Z, not after v1/,
    );
  });
});

describe('a version removed in the config after its deprecation', () => {
  const file = {
    '/c.json': JSON.stringify({
      versions: { v1: { deprecatedAt: '2025-06-01T00:00:00Z', removed: true } },
      notices: {
        brownouts: [
          { version: 'v1', startsAt: new Date(testEpoch - 3_600_000).toISOString(), endsAt: '2026-12-31T00:00:00Z' },
        ],
      },
    }),
  };

  it('is removed at the start that removed it, not at its old deprecation date', async () => {
    const t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: file });
    const { versions } = (await t.app.inject({ url: '/api/versions' })).json() as {
      versions: Array<{ name: string; sunsetAt: string }>;
    };
    assert.equal(Date.parse(versions.find((v) => v.name === 'v1')!.sunsetAt), testEpoch);
    await t.close();
  });

  it('keeps its document readable, marked removed, through a brownout; its calls get the removal, not the brownout', async () => {
    const t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: file });
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
    const info = (res.json() as { info: Record<string, unknown> }).info;
    assert.equal(info['x-removed'], true);
    assert.equal(Date.parse(String(info['x-sunset'])), testEpoch);
    const gone = assertProblem(await t.app.inject({ url: '/api/v1/users' }), { status: 410, code: 'VERSION_REMOVED' });
    assert.doesNotMatch(String(gone.detail), /brownout|Migrate before/);
    await t.close();
  });
});
