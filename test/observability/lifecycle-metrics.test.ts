import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller } from '../support/started-service.ts';
import { sampleOf, startLifecycleTraffic, type LifecycleTraffic } from './lifecycle-traffic.ts';

/**
 * The metrics behind the dashboard's lifecycle panels, read from the service's `/metrics` after
 * real calls: deprecated calls by client, each version's sunset, and calls a rule refused, by the
 * rule's decision.
 */
describe('lifecycle metrics at /metrics, through startService', () => {
  let t: LifecycleTraffic;
  let early: { id: string; key: string };
  before(async () => {
    // A small budget for readers, so that one client reaches a 429; the admin's is the default's.
    t = await startLifecycleTraffic({ rateLimit: { max: 5, windowSeconds: 60, roles: { admin: { max: 1000 } } } });
  });
  after(() => t.service.stop());

  it('counts deprecated calls by client and version, and not a current version', async () => {
    early = await t.client('early');
    assert.equal((await t.call(early.key, '/api/v1/users')).status, 200);
    assert.equal((await t.call(early.key, '/api/v1/users')).status, 200);
    assert.equal((await t.call(early.key, '/api/v2/users')).status, 200);
    const text = await t.scrape();
    const name = 'versionary_deprecated_client_calls_total';
    assert.equal(sampleOf(text, name, { version: 'v1', client: early.id }), 2);
    assert.equal(sampleOf(text, name, { version: 'v2' }), undefined, 'v2 is not deprecated');
    assert.doesNotMatch(text, new RegExp(early.key), 'a key never becomes a label');
  });

  it("exports each deprecated version's sunset as a Unix timestamp", async () => {
    const sunset = sampleOf(await t.scrape(), 'versionary_version_sunset_timestamp_seconds', { version: 'v1' });
    assert.equal(sunset, Math.floor((t.t0 + 30 * 86_400_000) / 1000));
    assert.doesNotMatch(await t.scrape(), /versionary_version_sunset_timestamp_seconds\{version="v2"\}/);
  });

  it('counts refused calls by decision: closed to new clients, rate limited, brownout, removed', async () => {
    const name = 'versionary_refused_calls_total';
    // The early client's calls are buffered: a management read writes them, as the closing reads them from the store.
    await adminCaller(t.service)('GET', '/admin/v1/deprecations');
    t.at(2);
    const late = await t.client('late');
    assert.equal((await t.call(late.key, '/api/v1/users')).status, 403);
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i += 1) status = (await t.call(late.key, '/api/v2/users')).status;
    assert.equal(status, 429);
    const admin = adminCaller(t.service);
    const hour = 3_600_000;
    const startsAt = t.t0 + 2 * 86_400_000 + hour;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(startsAt + hour).toISOString(),
    });
    assert.equal(planned.statusCode, 201, planned.body);
    t.at(2 + 1.5 / 24);
    assert.equal((await t.call(early.key, '/api/v1/users')).status, 410);
    t.at(31);
    assert.equal((await t.call(undefined, '/api/v1/users')).status, 410);
    const text = await t.scrape();
    assert.equal(sampleOf(text, name, { decision: 'closed_to_new_clients' }), 1);
    assert.equal(sampleOf(text, name, { decision: 'rate_limited' }), 1);
    assert.equal(sampleOf(text, name, { decision: 'brownout' }), 1);
    assert.equal(sampleOf(text, name, { decision: 'removed' }), 1);
  });
});
