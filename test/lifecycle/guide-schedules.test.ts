import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const day = 86_400_000;

describe('the public migration guide', () => {
  it('renders, in every format, for every schedule the management API accepts', async () => {
    const t = await createTestApp();
    const schedules: object[] = [
      ...[6, 7, 11, 12, 13, 18, 24, 60, 119, 120].map((noticeMonths) => ({ noticeMonths })),
      { reason: 'critical-fix', sunsetAt: new Date(testEpoch + 2 * day).toISOString() },
      {
        deprecatedAt: new Date(testEpoch - 100 * day).toISOString(),
        sunsetAt: new Date(testEpoch + 400 * day).toISOString(),
      },
    ];
    for (const payload of schedules) {
      const put = await t.app.inject({
        method: 'PUT',
        url: '/admin/v1/versions/v1/deprecation',
        payload,
        headers: adminHeaders,
      });
      assert.equal(put.statusCode, 200, `${JSON.stringify(payload)}: ${put.body}`);
      const sunsetAt = put.json().sunsetAt as string;
      for (const accept of ['text/html', 'text/markdown', 'application/json']) {
        const guide = await t.app.inject({
          url: '/api/versions/v1/migration-guide',
          headers: { accept, authorization: '' },
        });
        assert.equal(guide.statusCode, 200, `${JSON.stringify(payload)} as ${accept}: ${guide.body.slice(0, 200)}`);
        if (accept === 'application/json') {
          const timeline = guide.json().timeline as { sunsetAt: string; removedAt: string };
          assert.equal(Date.parse(timeline.sunsetAt), Date.parse(sunsetAt), 'the guide names the real sunset');
          assert.ok(Date.parse(timeline.removedAt) >= Date.parse(timeline.sunsetAt));
        }
      }
    }
    await t.close();
  });
});
