import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
type TestApp = Awaited<ReturnType<typeof createTestApp>>;
const putDeprecation = (t: TestApp, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/admin/v1/versions/v1/deprecation', headers: adminHeaders, payload });

// The service deprecates v1 at its first start (testEpoch, sunset 180 days later). Rescheduling
// it goes through the public rescheduleDeprecation: the announced deprecation date stays, a later
// sunset is always allowed, an earlier one needs the full notice from now.
describe('rescheduling a deprecated version through the management API', () => {
  it('postpones a sunset ten days away by a month, keeping the deprecation date, and the headers follow', async () => {
    const t = await createTestApp();
    t.clock.set(testEpoch + 170 * day);
    const put = await putDeprecation(t, { sunsetAt: iso(testEpoch + 200 * day) });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().deprecatedAt, iso(testEpoch), 'the announced deprecation date is kept');
    assert.equal(put.json().sunsetAt, iso(testEpoch + 200 * day));
    const res = await t.app.inject({ url: '/api/v1/users' });
    assert.equal(res.headers.deprecation, iso(testEpoch));
    assert.equal(res.headers.sunset, iso(testEpoch + 200 * day));
    await t.close();
  });

  it('refuses to bring the sunset closer than the notice period from now, unless a critical fix names it', async () => {
    const t = await createTestApp();
    t.clock.set(testEpoch + 30 * day);
    const put = (payload: object) => putDeprecation(t, payload);
    const early = await put({ sunsetAt: iso(testEpoch + 120 * day) });
    assert.equal(early.statusCode, 400, early.body);
    assert.equal(early.json().rule, 'notice-period');
    assert.match(early.json().detail, /v1 gives 90 days/);
    const fix = await put({ sunsetAt: iso(testEpoch + 120 * day), reason: 'critical-fix' });
    assert.equal(fix.statusCode, 200, fix.body);
    assert.equal(fix.json().deprecatedAt, iso(testEpoch));
    await t.close();
  });
});

// The spec's scheduling: a notice period and no dates sets deprecation = now, sunset = now + months
// x 30 days, removed = false, for an already deprecated version as for an active one.
describe("scheduling a deprecated version again by the spec's rule", () => {
  it('moves the deprecation to now and the sunset to now + the notice, and the headers follow', async () => {
    const t = await createTestApp();
    const now = testEpoch + 170 * day;
    t.clock.set(now);
    const put = await putDeprecation(t, { noticeMonths: 6 });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().deprecatedAt, iso(now), 'deprecation = now');
    assert.equal(put.json().sunsetAt, iso(now + 180 * day), 'sunset = now + 6 x 30 days');
    const res = await t.app.inject({ url: '/api/v1/users' });
    assert.equal(res.headers.deprecation, iso(now));
    assert.equal(res.headers.sunset, iso(now + 180 * day));
    const seven = await putDeprecation(t, { noticeMonths: 7 });
    assert.equal(seven.statusCode, 200, seven.body);
    assert.equal(seven.json().sunsetAt, iso(now + 210 * day));
    await t.close();
  });

  it('still refuses a notice under the policy (public audience: 6 months)', async () => {
    const t = await createTestApp();
    t.clock.set(testEpoch + 170 * day);
    const put = await putDeprecation(t, { noticeMonths: 2 });
    assert.equal(put.statusCode, 400, put.body);
    assert.equal(put.json().rule, 'notice-period');
    await t.close();
  });
});
