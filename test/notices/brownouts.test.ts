import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { adminHeaders, json, testEpoch, type TestApp } from '../support/test-app.ts';
import { createClientWithKey, createNoticeApp } from './support.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const hour = 3_600_000;

describe('brownouts and rehearsals over HTTP', () => {
  let t: TestApp;
  let acme: { key: string; client: { id: string } };
  let other: { key: string };
  before(async () => {
    t = await createNoticeApp({
      config: {
        removedStatus: 404,
        notices: {
          brownouts: [
            {
              version: 'v1',
              endpoint: 'GET /users/{id}',
              startsAt: iso(testEpoch + 2 * DAY_MS),
              endsAt: iso(testEpoch + 2 * DAY_MS + hour),
            },
          ],
        },
      },
    });
    acme = await createClientWithKey(t.app, { name: 'Acme', keyName: 'acme' });
    other = await createClientWithKey(t.app, { name: 'Other', keyName: 'other' });
  });
  after(async () => {
    await t.close();
  });

  it('applies a configured endpoint brownout with the configured status, and lists it', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'Ada' }, headers: adminHeaders });
    t.clock.set(testEpoch + 2 * DAY_MS + 60_000);
    const res = await t.app.inject({ url: '/api/v1/users/1', headers: { authorization: `Bearer ${other.key}` } });
    assert.equal(res.statusCode, 404);
    assert.match(json<{ detail: string }>(res).detail, /GET \/users\/\{id\} in v1 is in a planned brownout/);
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal(
      (await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${other.key}` } })).statusCode,
      200,
      'other endpoints answer',
    );
    const listed = json<{ data: Array<{ source: string; endpoint: string }> }>(
      await t.app.inject({ url: '/admin/v1/brownouts', headers: adminHeaders }),
    );
    assert.deepEqual(
      listed.data.map((b) => `${b.source} ${b.endpoint}`),
      ['config GET /users/{id}'],
    );
    const lifecycle = json<{ versions: Array<{ name: string; brownouts: unknown[] }> }>(
      await t.app.inject({ url: '/api/versions' }),
    );
    assert.deepEqual(lifecycle.versions.find((v) => v.name === 'v1')?.brownouts, [
      { endpoint: 'GET /users/{id}', startsAt: '2026-01-17T12:00:00.000Z', endsAt: '2026-01-17T13:00:00.000Z' },
    ]);
    assert.deepEqual(lifecycle.versions.find((v) => v.name === 'v2')?.brownouts, []);
    t.clock.set(testEpoch);
  });

  it('puts a brownout in the changelog and its feeds once it has started, never a future one', async () => {
    const kinds = async () =>
      json<{ items: Array<{ _versionary: { kind: string; version: string } }> }>(
        await t.app.inject({ url: '/changelog.json' }),
      )
        .items.filter((i) => i._versionary.kind === 'brownout')
        .map((i) => i._versionary.version);
    assert.deepEqual(await kinds(), [], 'a planned brownout is not yet an event');
    t.clock.set(testEpoch + 2 * DAY_MS + 60_000);
    assert.deepEqual(await kinds(), ['v1']);
    const atom = (await t.app.inject({ url: '/changelog.atom' })).body;
    assert.match(atom, /Brownout of GET \/users\/\{id\} of v1/);
    t.clock.set(testEpoch);
  });

  it('lets a consumer rehearse a brownout for its own client only, within limits', async () => {
    const as = { authorization: `Bearer ${acme.key}` };
    const startsAt = testEpoch + DAY_MS;
    const created = await t.app.inject({
      method: 'POST',
      url: '/self/v1/brownout-rehearsals',
      headers: as,
      payload: { version: 'v1', startsAt: iso(startsAt), endsAt: iso(startsAt + 30 * 60_000) },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(json<{ client: string }>(created).client, acme.client.id);
    t.clock.set(startsAt + 60_000);
    const mine = await t.app.inject({ url: '/api/v1/users', headers: as });
    assert.equal(mine.statusCode, 404);
    assert.match(json<{ detail: string }>(mine).detail, /brownout rehearsal for your client/);
    assert.equal(
      (await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${other.key}` } })).statusCode,
      200,
      'other clients are untouched',
    );
    t.clock.set(testEpoch);
    const listed = json<{ data: unknown[] }>(
      await t.app.inject({ url: '/self/v1/brownout-rehearsals', headers: { authorization: `Bearer ${other.key}` } }),
    );
    assert.equal(listed.data.length, 0, 'a client sees only its own rehearsals');
    const id = json<{ id: string }>(created).id;
    assert.equal(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/self/v1/brownout-rehearsals/${id}`,
          headers: { authorization: `Bearer ${other.key}` },
        })
      ).statusCode,
      404,
    );
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/self/v1/brownout-rehearsals/${id}`, headers: as })).statusCode,
      204,
    );
  });

  it('refuses bad brownouts and rehearsals with 4xx problems', async () => {
    const as = { authorization: `Bearer ${acme.key}` };
    const at = testEpoch + DAY_MS;
    const bad: Array<[Record<string, string>, Record<string, unknown>, number]> = [
      [as, { version: 'v1', startsAt: iso(at), endsAt: iso(at + 2 * hour) }, 400],
      [as, { version: 'v1', startsAt: iso(at + 60 * DAY_MS), endsAt: iso(at + 60 * DAY_MS + 60_000) }, 400],
      [as, { version: 'v2', startsAt: iso(at), endsAt: iso(at + 60_000) }, 400],
      [as, { version: 'v1', startsAt: iso(at + 60_000), endsAt: iso(at) }, 400],
      [as, { version: 'v1', startsAt: 'tomorrow', endsAt: iso(at) }, 400],
      [as, { version: 'v1', startsAt: iso(at), endsAt: iso(at + 60_000), extra: 1 }, 400],
      [as, { version: 'v1; drop', startsAt: iso(at), endsAt: iso(at + 60_000) }, 400],
      [{ authorization: '' }, { version: 'v1', startsAt: iso(at), endsAt: iso(at + 60_000) }, 401],
      [adminHeaders, { version: 'v1', startsAt: iso(at), endsAt: iso(at + 60_000) }, 403],
    ];
    for (const [headers, payload, status] of bad) {
      const res = await t.app.inject({ method: 'POST', url: '/self/v1/brownout-rehearsals', headers, payload });
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)} ${res.body}`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    }
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/self/v1/brownout-rehearsals',
        headers: as,
        payload: { version: 'v1', startsAt: iso(at + i * hour), endsAt: iso(at + i * hour + 60_000) },
      });
      assert.equal(res.statusCode, 201);
    }
    const fourth = await t.app.inject({
      method: 'POST',
      url: '/self/v1/brownout-rehearsals',
      headers: as,
      payload: { version: 'v1', startsAt: iso(at + 5 * hour), endsAt: iso(at + 5 * hour + 60_000) },
    });
    assert.equal(fourth.statusCode, 400);
    assert.match(json<{ detail: string }>(fourth).detail, /at most 3 rehearsals/);
    const pastSunset = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/brownouts',
      headers: adminHeaders,
      payload: { version: 'v1', startsAt: iso(testEpoch + 400 * DAY_MS), endsAt: iso(testEpoch + 400 * DAY_MS + hour) },
    });
    assert.equal(pastSunset.statusCode, 400);
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: '/admin/v1/brownouts/bo_nope', headers: adminHeaders })).statusCode,
      404,
    );
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/admin/v1/brownouts',
          headers: { authorization: `Bearer ${acme.key}` },
          payload: {},
        })
      ).statusCode,
      403,
    );
  });
});
