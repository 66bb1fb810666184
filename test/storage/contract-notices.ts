import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NoticeStore, Storage } from '../../src/kernel/ports/index.ts';

type NewOutboxNotice = Parameters<NoticeStore['enqueue']>[0][number];

const row = (over: Partial<NewOutboxNotice> = {}): NewOutboxNotice => ({
  clientId: 'acme',
  subject: 'v1',
  kind: 'deprecated',
  step: '',
  sunsetAt: 5_000,
  channel: 'email',
  recipient: 'dev@acme.test',
  payload: '{}',
  status: 'pending',
  createdAt: 1_000,
  ...over,
});

/** The notice outbox part of the storage contract. */
export function runNoticeContract(name: string, open: () => Promise<Storage>): void {
  describe(`notice outbox contract: ${name}`, () => {
    let s: Storage;
    before(async () => {
      s = await open();
    });
    after(async () => {
      await s.close();
    });

    it('writes each (client, subject, kind, step, sunset, channel, recipient) once', async () => {
      assert.equal(await s.notices.enqueue([row(), row(), row({ channel: 'webhook', recipient: 'wh_1' })]), 2);
      assert.equal(
        await s.notices.enqueue([row(), row({ sunsetAt: 6_000 }), row({ kind: 'reminder', step: '30d' })]),
        2,
      );
      const recorded = await s.notices.recorded();
      assert.deepEqual(recorded.map((r) => `${r.kind}/${r.step}/${r.sunsetAt}@${r.plannedAt}`).sort(), [
        'deprecated//5000@1000',
        'deprecated//6000@1000',
        'reminder/30d/5000@1000',
      ]);
    });

    it('leases due rows to one worker at a time and lets a lost lease be taken over', async () => {
      await s.notices.enqueue([
        row({ clientId: 'lease', recipient: 'a@x.test' }),
        row({ clientId: 'lease', recipient: 'b@x.test', createdAt: 50_000 }),
      ]);
      const first = await s.notices.claim({ owner: 'w1', now: 10_000, leaseMs: 1_000, limit: 10, channels: ['email'] });
      assert.ok(first.some((n) => n.recipient === 'a@x.test'));
      assert.ok(!first.some((n) => n.recipient === 'b@x.test'), 'not due yet');
      const second = await s.notices.claim({
        owner: 'w2',
        now: 10_500,
        leaseMs: 1_000,
        limit: 10,
        channels: ['email'],
      });
      assert.equal(second.length, 0, 'leased rows are not claimed again');
      const mine = first.find((n) => n.recipient === 'a@x.test')!;
      const takenOver = await s.notices.claim({
        owner: 'w2',
        now: 11_001,
        leaseMs: 1_000,
        limit: 10,
        channels: ['email'],
      });
      assert.ok(
        takenOver.some((n) => n.id === mine.id),
        'an expired lease is claimed again',
      );
      assert.equal(
        await s.notices.complete({ id: mine.id, owner: 'w1', outcome: { status: 'sent', at: 11_002 } }),
        false,
        'the old holder lost it',
      );
      assert.equal(
        await s.notices.complete({
          id: mine.id,
          owner: 'w2',
          outcome: { status: 'retrying', at: 11_002, nextAttemptAt: 20_000, error: '421 busy' },
        }),
        true,
      );
      let got = await s.notices.get(mine.id);
      assert.deepEqual(
        [got?.status, got?.attempts, got?.lastError, got?.nextAttemptAt],
        ['retrying', 1, '421 busy', 20_000],
      );
      assert.equal(
        (await s.notices.claim({ owner: 'w3', now: 19_999, leaseMs: 1_000, limit: 10, channels: ['email'] })).some(
          (n) => n.id === mine.id,
        ),
        false,
      );
      const again = await s.notices.claim({ owner: 'w3', now: 20_000, leaseMs: 1_000, limit: 10, channels: ['email'] });
      assert.ok(again.some((n) => n.id === mine.id));
      assert.equal(
        await s.notices.complete({ id: mine.id, owner: 'w3', outcome: { status: 'sent', at: 20_001 } }),
        true,
      );
      got = await s.notices.get(mine.id);
      assert.deepEqual([got?.status, got?.attempts, got?.sentAt, got?.lastError], ['sent', 2, 20_001, null]);
      assert.equal(
        (await s.notices.claim({ owner: 'w4', now: 99_999, leaseMs: 1_000, limit: 10, channels: ['email'] })).some(
          (n) => n.id === mine.id,
        ),
        false,
        'sent is final',
      );
      assert.equal(
        (await s.notices.claim({ owner: 'w4', now: 99_999, leaseMs: 1_000, limit: 10, channels: [] })).length,
        0,
      );
    });

    it('claims only the channels asked for', async () => {
      await s.notices.enqueue([row({ clientId: 'chan', channel: 'webhook', recipient: 'wh_9' })]);
      const email = await s.notices.claim({ owner: 'e', now: 1_000_000, leaseMs: 1, limit: 100, channels: ['email'] });
      assert.ok(email.every((n) => n.channel === 'email'));
      assert.ok(!email.some((n) => n.clientId === 'chan'));
    });

    it("marks a recipient's unsent rows unsubscribed, records failures, filters and pages the list", async () => {
      await s.notices.enqueue([
        row({ clientId: 'u', recipient: 'quit@u.test' }),
        row({ clientId: 'u', recipient: 'stay@u.test' }),
        row({ clientId: 'u', kind: 'reminder', step: '7d', recipient: 'stay@u.test', status: 'unsubscribed' }),
      ]);
      assert.equal(await s.notices.unsubscribe({ clientId: 'u', recipient: 'quit@u.test', at: 2_000 }), 1);
      const [stay] = (await s.notices.list({ clientId: 'u', status: 'pending', limit: 10, afterId: 0 })).items;
      assert.equal(stay?.recipient, 'stay@u.test');
      const claimed = await s.notices.claim({
        owner: 'f',
        now: 3_000_000,
        leaseMs: 1_000,
        limit: 100,
        channels: ['email'],
      });
      assert.ok(claimed.some((n) => n.id === stay!.id));
      assert.ok(!claimed.some((n) => n.recipient === 'quit@u.test'));
      await s.notices.complete({
        id: stay!.id,
        owner: 'f',
        outcome: { status: 'failed', at: 3_000_001, error: '550 no such user' },
      });
      assert.deepEqual(
        (await s.notices.list({ clientId: 'u', status: 'failed', limit: 10, afterId: 0 })).items.map(
          (n) => n.lastError,
        ),
        ['550 no such user'],
      );
      assert.equal(
        (await s.notices.list({ clientId: 'u', status: 'unsubscribed', limit: 10, afterId: 0 })).items.length,
        2,
      );
      assert.equal((await s.notices.list({ clientId: 'u', kind: 'reminder', limit: 10, afterId: 0 })).items.length, 1);
      const page = await s.notices.list({ clientId: 'u', limit: 2, afterId: 0 });
      assert.equal(page.items.length, 2);
      const rest = await s.notices.list({ clientId: 'u', limit: 2, afterId: page.nextAfter! });
      assert.deepEqual([rest.items.length, rest.nextAfter], [1, null]);
      assert.equal(await s.notices.get(999_999), undefined);
    });

    it('keeps planned brownouts, global and rehearsals', async () => {
      await s.notices.saveBrownout({
        id: 'bo_2',
        version: 'v1',
        endpoint: 'GET /users',
        startsAt: 300,
        endsAt: 400,
        clientId: 'cl_a',
        createdAt: 1,
      });
      await s.notices.saveBrownout({ id: 'bo_1', version: 'v1', startsAt: 100, endsAt: 200, createdAt: 1 });
      assert.deepEqual(await s.notices.listBrownouts(), [
        { id: 'bo_1', version: 'v1', startsAt: 100, endsAt: 200 },
        { id: 'bo_2', version: 'v1', endpoint: 'GET /users', startsAt: 300, endsAt: 400, clientId: 'cl_a' },
      ]);
      assert.equal(await s.notices.deleteBrownout('bo_1'), true);
      assert.equal(await s.notices.deleteBrownout('bo_1'), false);
      assert.equal((await s.notices.listBrownouts()).length, 1);
    });

    it('keeps a targeted brownout with its clients and how they were chosen', async () => {
      await s.notices.saveBrownout({
        id: 'bo_t',
        version: 'v1',
        startsAt: 500,
        endsAt: 600,
        clients: ['cl_a', 'cl_b'],
        calledWithinDays: 30,
        createdAt: 1,
      });
      assert.deepEqual(
        (await s.notices.listBrownouts()).find((b) => b.id === 'bo_t'),
        { id: 'bo_t', version: 'v1', startsAt: 500, endsAt: 600, clients: ['cl_a', 'cl_b'], calledWithinDays: 30 },
      );
    });
  });
}
