import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { adminHeaders, json, testEpoch } from '../support/test-app.ts';
import { startSmtpCatcher } from './smtp-catcher.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

describe('a whole lifecycle under an injected clock', () => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('deprecation, reminders at 90/30/7/1 days, a brownout and the removal reach the one client that calls v1', async () => {
    const smtp = await startSmtpCatcher();
    closers.push(() => smtp.close());
    const t = await createNoticeApp({ smtpUrl: smtp.url });
    closers.push(() => t.close());
    const acme = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'acme' });
    const beta = await createClientWithKey(t.app, { name: 'Beta', contacts: ['dev@beta.test'], keyName: 'beta' });
    const day = (d: number) => testEpoch + d * DAY_MS;
    const log: string[] = [];
    const checkBrownout = async () => {
      t.clock.set(brownoutStart + 60_000);
      const during = await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } });
      assert.equal(during.statusCode, 410);
      const problem = json<{ detail: string; brownout: { endsAt: string; rehearsal: boolean }; removalAt: string }>(
        during,
      );
      assert.match(problem.detail, /planned brownout until 2026-06-24T07:00:00\.000Z/);
      assert.deepEqual(
        [problem.brownout.endsAt, problem.brownout.rehearsal, problem.removalAt],
        ['2026-06-24T07:00:00.000Z', false, '2026-07-14T12:00:00.000Z'],
      );
      assert.ok(during.headers.deprecation, 'a brownout answer still carries the deprecation headers');
      assert.equal(
        (await t.app.inject({ url: '/api/v2/users', headers: { authorization: `Bearer ${acme.key}` } })).statusCode,
        200,
      );
      t.clock.set(day(160));
    };
    // Early on day 160, so the daily calls at noon fall outside the one-hour window.
    const brownoutStart = day(160) - 6 * 3_600_000;
    for (let d = 0; d <= 185; d++) {
      t.clock.set(day(d));
      if (d === 100) {
        const planned = await t.app.inject({
          method: 'POST',
          url: '/admin/v1/brownouts',
          headers: adminHeaders,
          payload: {
            version: 'v1',
            startsAt: new Date(brownoutStart).toISOString(),
            endsAt: new Date(brownoutStart + 3_600_000).toISOString(),
          },
        });
        assert.equal(planned.statusCode, 201, planned.body);
      }
      if (d === 160) await checkBrownout();
      const v1 = await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } });
      assert.equal(v1.statusCode, d <= 180 ? 200 : 410, `day ${d}`);
      assert.equal(
        (await t.app.inject({ url: '/api/v2/users', headers: { authorization: `Bearer ${beta.key}` } })).statusCode,
        200,
      );
      const before = smtp.messages.length;
      await runNotices(t.app);
      for (const m of smtp.messages.slice(before)) log.push(`${d} ${m.envelopeTo.join(',')} ${m.subject}`);
    }
    assert.deepEqual(log, [
      '0 dev@acme.test [v1] API version v1 is deprecated',
      '90 dev@acme.test [v1] API version v1 will be removed in 90 days',
      '150 dev@acme.test [v1] API version v1 will be removed in 30 days',
      '153 dev@acme.test [v1] Planned brownout of API version v1',
      '173 dev@acme.test [v1] API version v1 will be removed in 7 days',
      '179 dev@acme.test [v1] API version v1 will be removed in 1 day',
      '181 dev@acme.test [v1] API version v1 has been removed',
    ]);
    const brownoutMail = smtp.messages.find((m) => /brownout/.test(m.subject ?? ''))!;
    assert.match(brownoutMail.text ?? '', /Brownout: 2026-06-24T06:00:00\.000Z to 2026-06-24T07:00:00\.000Z/);
  });
});
