import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceStores, Storage } from '../../src/kernel/ports/index.ts';
import { runApprovalsContract } from './contract-approvals.ts';
import { runExtendedAccessContract } from './contract-extended-access.ts';
import { runExtendedAccessRequestsContract } from './contract-extended-access-requests.ts';
import { runClientsContract } from './contract-clients.ts';
import { runNoticeContract } from './contract-notices.ts';
import { runClientUsageContract } from './contract-client-usage.ts';
import { runOperationCountsContract } from './contract-operations.ts';
import { runUsageLogContract } from './contract-usage-log.ts';

/** How a contract run opens a fresh, empty storage. */
export type OpenStorage = () => Promise<Storage>;

const at = '2026-01-01T00:00:00.000Z';
const values = (name: string) => ({ name, email: null, nickname: null, status: 'active' as const });

/** The storage contract: every adapter must pass the same behaviour, against a real database. */
export function runStorageContract(name: string, open: OpenStorage): void {
  describe(`storage contract: ${name}`, () => {
    // The loop's stores, and the reference service's users and posts opened on the same database.
    let s: Storage & ResourceStores;
    before(async () => {
      const opened = await open();
      s = { ...opened, ...(await opened.resources()) };
    });
    after(async () => {
      await s.close();
    });

    it('creates, reads, pages and counts users', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await s.users.create({ values: values(`u${i}`), at }));
      assert.deepEqual(
        created.map((u) => u.revision),
        [1, 1, 1, 1, 1],
      );
      assert.equal((await s.users.get(created[2]!.id))?.name, 'u2');
      assert.equal(await s.users.get(999_999), undefined);
      const first = await s.users.list({ limit: 2, afterId: 0 });
      assert.deepEqual(
        first.items.map((u) => u.name),
        ['u0', 'u1'],
      );
      const second = await s.users.list({ limit: 10, afterId: first.nextAfter! });
      assert.deepEqual(
        second.items.map((u) => u.name),
        ['u2', 'u3', 'u4'],
      );
      assert.equal(second.nextAfter, null);
      assert.equal(await s.users.count(), 5);
      // A list item carries what a list shows, with its values: the optional ones too.
      const full = await s.users.create({
        values: { name: 'u5', email: 'u5@example.com', nickname: 'five', status: 'pending' },
        at,
      });
      const [item] = (await s.users.list({ limit: 1, afterId: full.id - 1 })).items;
      assert.deepEqual(item, { id: full.id, name: 'u5', email: 'u5@example.com', nickname: 'five', status: 'pending' });
      // Asked for some columns, a page has those and the id, and nothing else.
      const sparse = await s.users.list({ limit: 1, afterId: full.id - 1, columns: ['nickname', 'email'] });
      assert.deepEqual(sparse.items, [{ id: full.id, email: 'u5@example.com', nickname: 'five' }]);
      const ids = await s.users.list({ limit: 2, afterId: 0, columns: [] });
      assert.deepEqual(ids, { items: [{ id: created[0]!.id }, { id: created[1]!.id }], nextAfter: created[1]!.id });
    });

    it('writes users conditionally on their revision: ok, stale or missing', async () => {
      const user = await s.users.create({ values: values('cond'), at });
      const ok = await s.users.update({
        id: user.id,
        values: { ...values('cond2'), email: 'a@b.c' },
        expectedRevision: 1,
        at,
      });
      assert.equal(ok.kind, 'ok');
      assert.equal(ok.kind === 'ok' && ok.value.revision, 2);
      assert.equal(ok.kind === 'ok' && ok.value.email, 'a@b.c');
      assert.equal((await s.users.update({ id: user.id, values: values('x'), expectedRevision: 1, at })).kind, 'stale');
      assert.equal(
        (await s.users.update({ id: 999_999, values: values('x'), expectedRevision: 1, at })).kind,
        'missing',
      );
      const racers = await Promise.all(
        [0, 1, 2, 3].map((i) => s.users.update({ id: user.id, values: values(`r${i}`), expectedRevision: 2, at })),
      );
      assert.equal(racers.filter((r) => r.kind === 'ok').length, 1, 'exactly one concurrent writer wins');
      assert.equal((await s.users.delete({ id: user.id, expectedRevision: 1 })).kind, 'stale');
      assert.equal((await s.users.delete({ id: user.id })).kind, 'ok');
      assert.equal((await s.users.delete({ id: user.id })).kind, 'missing');
    });

    it('keeps posts under their user, refuses posts of unknown users and deletes them with the user', async () => {
      const user = await s.users.create({ values: values('poster'), at });
      assert.equal(await s.posts.create({ userId: 999_999, title: 't', body: 'b', at }), undefined);
      const posts = [];
      for (let i = 0; i < 3; i++)
        posts.push((await s.posts.create({ userId: user.id, title: `t${i}`, body: 'b', at }))!);
      assert.deepEqual(
        (await s.posts.list({ userId: user.id, limit: 2, afterId: 0 })).items.map((p) => p.title),
        ['t0', 't1'],
      );
      assert.equal((await s.posts.get({ userId: user.id, postId: posts[1]!.id }))?.title, 't1');
      assert.equal(await s.posts.get({ userId: user.id + 1000, postId: posts[1]!.id }), undefined);
      assert.equal(await s.posts.delete({ userId: user.id, postId: posts[0]!.id }), true);
      assert.equal(await s.posts.delete({ userId: user.id, postId: posts[0]!.id }), false);
      await s.users.delete({ id: user.id });
      assert.equal(await s.posts.get({ userId: user.id, postId: posts[2]!.id }), undefined);
    });

    it('upserts schedules and endpoint deprecations', async () => {
      const schedule = {
        version: 'v1',
        deprecatedAt: 1_000,
        sunsetAt: 2_000_000_000_000,
        removed: false,
        reason: 'planned' as const,
        migrationUrl: null,
      };
      await s.lifecycle.saveSchedule(schedule);
      await s.lifecycle.saveSchedule({ ...schedule, removed: true, migrationUrl: 'https://example.com/g' });
      assert.deepEqual(await s.lifecycle.listSchedules(), [
        { ...schedule, removed: true, migrationUrl: 'https://example.com/g' },
      ]);
      // The config file's fingerprint survives a save without one (a change through the management API).
      await s.lifecycle.saveSchedule({ ...schedule, version: 'v3', configFingerprint: '["a"]' });
      await s.lifecycle.saveSchedule({ ...schedule, version: 'v3', sunsetAt: 3_000_000_000_000 });
      const v3 = (await s.lifecycle.listSchedules()).find((x) => x.version === 'v3');
      assert.deepEqual(v3, { ...schedule, version: 'v3', sunsetAt: 3_000_000_000_000, configFingerprint: '["a"]' });
      const endpoint = {
        version: 'v2',
        method: 'GET',
        path: '/users',
        deprecatedAt: 5,
        sunsetAt: 6,
        migrationUrl: null,
      };
      await s.lifecycle.saveEndpointDeprecation(endpoint);
      await s.lifecycle.saveEndpointDeprecation({ ...endpoint, sunsetAt: 7 });
      assert.deepEqual(await s.lifecycle.listEndpointDeprecations(), [{ ...endpoint, sunsetAt: 7 }]);
    });

    it('records usage in batches and summarises distinct clients and endpoints', async () => {
      const calls = Array.from({ length: 450 }, (_, i) => ({
        version: 'v9',
        endpoint: `GET /e${i % 3}`,
        clientId: `c${i % 7}`,
        at: 1_700_000_000_000 + i,
      }));
      await s.usage.insert(calls);
      assert.deepEqual(await s.usage.summary('v9'), { calls: 450, clients: 7, endpoints: 3 });
      assert.deepEqual(await s.usage.summary('v8'), { calls: 0, clients: 0, endpoints: 0 });
      const page = await s.usage.list({ version: 'v9', clientId: 'c1', limit: 10, afterId: 0 });
      assert.equal(page.items.length, 10);
      assert.ok(page.items.every((c) => c.clientId === 'c1'));
      assert.notEqual(page.nextAfter, null);
    });

    it('counts element calls in their own rollup, per element and per client, never in the version reads', async () => {
      const t0 = Date.UTC(2026, 2, 1, 10);
      await s.usage.insert([{ version: 've', endpoint: 'GET /users', clientId: 'c1', keyId: 'k1', at: t0 }]);
      const before = {
        summary: await s.usage.summary('ve'),
        byClient: await s.usage.byClient({ since: 0 }),
        totals: await s.usage.clientTotals({ since: 0 }),
        days: await s.usage.byDay({ since: 0, perClient: true }),
        raw: await s.usage.list({ version: 've', limit: 100, afterId: 0 }),
      };
      const element = ([clientId, endpoint, name, at]: [string, string, string, number]) => ({
        version: 've',
        endpoint,
        clientId,
        keyId: `key_${clientId}`,
        at,
        element: name,
      });
      // Two batches, so the upsert adds to rows already there.
      await s.usage.insert([
        element(['c1', 'GET /users/{id}', 'User.nickname', t0 + 1]),
        element(['c1', 'GET /users/{id}', 'User.nickname', t0 + 2]),
        element(['c2', 'GET /users', 'User.nickname', t0 + 3]),
      ]);
      await s.usage.insert([
        element(['c2', 'GET /users/{id}', 'User.nickname', t0 + 9]),
        element(['c1', 'GET /users', 'GET /users?order', t0 + 4]),
        element(['c2', 'GET /users', 'GET /users?order', t0 - 5]),
      ]);
      assert.deepEqual(
        {
          summary: await s.usage.summary('ve'),
          byClient: await s.usage.byClient({ since: 0 }),
          totals: await s.usage.clientTotals({ since: 0 }),
          days: await s.usage.byDay({ since: 0, perClient: true }),
          raw: await s.usage.list({ version: 've', limit: 100, afterId: 0 }),
        },
        before,
        'element calls change none of the version reads',
      );
      assert.deepEqual(await s.usage.elementUsage(), [
        { version: 've', element: 'GET /users?order', calls: 2, clients: 2, endpoints: 1, lastSeen: t0 + 4 },
        { version: 've', element: 'User.nickname', calls: 4, clients: 2, endpoints: 2, lastSeen: t0 + 9 },
      ]);
      assert.deepEqual(await s.usage.elementUsage({ clientId: 'c2' }), [
        { version: 've', element: 'GET /users?order', calls: 1, clients: 1, endpoints: 1, lastSeen: t0 - 5 },
        { version: 've', element: 'User.nickname', calls: 2, clients: 1, endpoints: 2, lastSeen: t0 + 9 },
      ]);
      const row = ([endpoint, name, calls, firstSeen, lastSeen]: [string, string, number, number, number]) => ({
        clientId: 'c1',
        element: name,
        version: 've',
        endpoint,
        calls,
        firstSeen,
        lastSeen,
      });
      assert.deepEqual(await s.usage.elementCalls({ clientId: 'c1' }), [
        row(['GET /users', 'GET /users?order', 1, t0 + 4, t0 + 4]),
        row(['GET /users/{id}', 'User.nickname', 2, t0 + 1, t0 + 2]),
      ]);
      assert.equal((await s.usage.elementCalls()).length, 5);
      assert.deepEqual(await s.usage.elementCalls({ clientId: 'nobody' }), []);
    });

    it('stores API keys by hash, revokes once and counts active admins', async () => {
      const record = {
        id: 'key_0123456789abcdef',
        name: 'k',
        roles: ['admin'],
        contact: null,
        hash: 'ab'.repeat(32),
        createdAt: 1,
        revokedAt: null,
      };
      await s.apiKeys.insert(record);
      assert.deepEqual(await s.apiKeys.find(record.id), record);
      assert.equal(await s.apiKeys.countActiveAdmins(), 1);
      assert.equal(await s.apiKeys.revoke({ id: record.id, at: 2 }), true);
      assert.equal(await s.apiKeys.revoke({ id: record.id, at: 3 }), false);
      assert.equal((await s.apiKeys.find(record.id))?.revokedAt, 2);
      assert.equal(await s.apiKeys.countActiveAdmins(), 0);
    });

    it('claims idempotency keys once, replays, detects mismatches and expires', async () => {
      const base = {
        clientId: 'c',
        key: 'k1',
        fingerprint: 'f',
        now: 1_000_000,
        expiredBefore: 0,
        staleRunningBefore: 0,
      };
      const claims = await Promise.all([0, 1, 2].map(() => s.idempotency.begin(base)));
      assert.equal(claims.filter((c) => c.kind === 'started').length, 1, 'one concurrent claim wins');
      assert.ok(claims.every((c) => c.kind === 'started' || c.kind === 'running'));
      assert.equal((await s.idempotency.begin({ ...base, fingerprint: 'other' })).kind, 'mismatch');
      await s.idempotency.complete({
        clientId: 'c',
        key: 'k1',
        claimedAt: 999,
        response: { status: 500, headers: {}, body: 'wrong claim' },
      });
      assert.equal((await s.idempotency.begin(base)).kind, 'running', 'another claim cannot complete this one');
      await s.idempotency.complete({
        clientId: 'c',
        key: 'k1',
        claimedAt: 1_000_000,
        response: { status: 201, headers: { location: '/x' }, body: '{"a":1}' },
      });
      assert.deepEqual(await s.idempotency.begin(base), {
        kind: 'done',
        response: { status: 201, headers: { location: '/x' }, body: '{"a":1}' },
      });
      assert.equal((await s.idempotency.begin({ ...base, clientId: 'other' })).kind, 'started', 'keys are per client');
      assert.equal(
        (await s.idempotency.begin({ ...base, expiredBefore: 1_000_001 })).kind,
        'started',
        'expired records are replaced',
      );
      await s.idempotency.abandon({ clientId: 'c', key: 'k1', claimedAt: 1_000_000 });
      assert.equal((await s.idempotency.begin(base)).kind, 'started', 'an abandoned claim can be retried');
      assert.equal(
        (await s.idempotency.begin({ ...base, staleRunningBefore: 1_000_001 })).kind,
        'started',
        'a stale running claim is taken over',
      );
      await s.idempotency.begin({ ...base, clientId: 'old', now: 10 });
      await s.idempotency.begin({ ...base, clientId: 'new', now: 2_000_000, expiredBefore: 100 });
      assert.equal(
        (await s.idempotency.begin({ ...base, clientId: 'old', now: 2_000_000, expiredBefore: 0 })).kind,
        'started',
        'expired records of other clients were swept',
      );
    });

    runClientsContract(() => s);
    runOperationCountsContract(() => s);
    runClientUsageContract(() => s);
    runApprovalsContract(() => s);
    runExtendedAccessContract(() => s);
    runUsageLogContract(() => s);
    runExtendedAccessRequestsContract(() => s);
  });
  runNoticeContract(name, open);
}
