import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ClientUsageRow, ResourceStores, Storage, UsageCall } from '../../src/kernel/ports/index.ts';

const day = 86_400_000;
const t0 = Date.UTC(2026, 2, 1);
const at = '2026-01-01T00:00:00.000Z';
const values = (name: string) => ({ name, email: null, nickname: null, status: 'active' as const });

/** Usage per (client, version, endpoint, key) computed the slow way, for comparison. */
function naiveByClient(
  calls: UsageCall[],
  options: { since: number; until?: number; version?: string },
): ClientUsageRow[] {
  const since = Math.floor(options.since / 60_000) * 60_000;
  const rows = new Map<string, ClientUsageRow & { agentAt: number }>();
  for (const c of calls) {
    const minute = Math.floor(c.at / 60_000) * 60_000;
    if (minute < since || (options.until !== undefined && minute >= options.until)) continue;
    if (options.version !== undefined && c.version !== options.version) continue;
    const id = [c.clientId, c.version, c.endpoint, c.keyId ?? ''].join('|');
    const row = rows.get(id) ?? {
      clientId: c.clientId,
      version: c.version,
      endpoint: c.endpoint,
      ...(c.keyId ? { keyId: c.keyId } : {}),
      calls: 0,
      firstSeen: c.at,
      lastSeen: c.at,
      agentAt: -1,
    };
    row.calls++;
    row.firstSeen = Math.min(row.firstSeen, c.at);
    row.lastSeen = Math.max(row.lastSeen, c.at);
    if (c.at >= row.agentAt) {
      row.agentAt = c.at;
      if (c.userAgent) row.userAgent = c.userAgent;
      else delete row.userAgent;
    }
    rows.set(id, row);
  }
  const key = (r: ClientUsageRow) => [r.clientId, r.version, r.endpoint, r.keyId ?? ''].join('|');
  return [...rows.values()].map(({ agentAt: _, ...r }) => r).sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

const sortRows = (rows: ClientUsageRow[]) => {
  const key = (r: ClientUsageRow) => [r.clientId, r.version, r.endpoint, r.keyId ?? ''].join('|');
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
};

/** A deterministic spread of calls over four days, several clients, keys and agents. */
function spreadCalls(count: number, seed: number): UsageCall[] {
  let x = seed;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return Array.from({ length: count }, () => {
    const client = Math.floor(next() * 5);
    return {
      version: next() < 0.8 ? 'w1' : 'w2',
      endpoint: ['GET /users', 'POST /users', 'GET /users/{id}'][Math.floor(next() * 3)]!,
      clientId: `cl_${client}`,
      ...(next() < 0.9 ? { keyId: `key_${client}${Math.floor(next() * 2)}` } : {}),
      ...(next() < 0.7 ? { userAgent: `agent/${Math.floor(next() * 4)}` } : {}),
      at: t0 + Math.floor(next() * 4 * day),
    };
  });
}

/**
 * The contract of clients, per-client usage rollups and resource ownership, run inside the
 * storage contract of every adapter.
 */
export function runClientsContract(storage: () => Storage & ResourceStores): void {
  it('creates, reads, pages, updates and deletes clients with their contacts and webhooks', async () => {
    const s = storage();
    const make = (i: number) => ({
      id: `cl_00000000000000${String(i).padStart(2, '0')}`,
      name: `Client ${i}`,
      createdAt: 1000 + (i % 3),
      updatedAt: 1000 + (i % 3),
      contacts: [
        { email: `Dev${i}@Acme.test`, subscribed: true },
        { email: `ops${i}@acme.test`, subscribed: false },
      ],
      webhooks: [{ id: `wh_${i}a`, url: `https://hooks.acme.test/${i}`, secret: 'whsec_c2VjcmV0' }],
    });
    for (let i = 0; i < 7; i++) await s.clients.insert(make(i));
    const found = await s.clients.find(make(3).id);
    assert.deepEqual(found, {
      ...make(3),
      contacts: [
        { email: 'dev3@acme.test', subscribed: true },
        { email: 'ops3@acme.test', subscribed: false },
      ],
    });
    assert.equal(await s.clients.find('cl_missing'), undefined);
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await s.clients.list({ limit: 3, ...(after ? { after } : {}) });
      seen.push(...page.items.map((c) => c.id));
      after = page.nextAfter ?? undefined;
    } while (after);
    const expected = Array.from({ length: 7 }, (_, i) => make(i))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map((c) => c.id);
    assert.deepEqual(seen, expected, 'every client once, in creation order');
    assert.deepEqual(
      (await s.clients.findMany([make(1).id, 'cl_missing', make(2).id, make(1).id])).map((c) => c.id).sort(),
      [make(1).id, make(2).id],
    );

    assert.equal(await s.clients.setContactSubscribed(make(1).id, 'DEV1@acme.test', false), true);
    assert.equal(await s.clients.setContactSubscribed(make(1).id, 'nobody@acme.test', false), false);
    assert.equal((await s.clients.find(make(1).id))?.contacts[0]?.subscribed, false);

    const changed = {
      ...make(1),
      name: 'Renamed',
      updatedAt: 5000,
      contacts: [{ email: 'new@acme.test', subscribed: true }],
      webhooks: [],
    };
    assert.equal(await s.clients.update(changed), true);
    assert.deepEqual(await s.clients.find(make(1).id), changed);
    assert.equal(await s.clients.update({ ...changed, id: 'cl_missing' }), false);
    assert.equal(await s.clients.delete(make(1).id), true);
    assert.equal(await s.clients.delete(make(1).id), false);
    assert.equal(await s.clients.find(make(1).id), undefined);
  });

  it("keeps each client's minimum version, lists those that have one, and clears it", async () => {
    const s = storage();
    const client = (id: string) => ({ id, name: id, createdAt: 1, updatedAt: 1, contacts: [], webhooks: [] });
    await s.clients.insert({ ...client('cl_00000000000000m1'), minimumVersion: 'v2' });
    await s.clients.insert(client('cl_00000000000000m2'));
    assert.equal((await s.clients.find('cl_00000000000000m1'))?.minimumVersion, 'v2');
    assert.deepEqual(await s.clients.minimumVersions(), { cl_00000000000000m1: 'v2' });
    await s.clients.update({ ...client('cl_00000000000000m2'), minimumVersion: 'v3' });
    await s.clients.update(client('cl_00000000000000m1'));
    assert.deepEqual(await s.clients.minimumVersions(), { cl_00000000000000m2: 'v3' });
    assert.equal('minimumVersion' in (await s.clients.find('cl_00000000000000m1'))!, false, 'cleared');
  });

  it('keeps the client of an API key', async () => {
    const s = storage();
    const record = {
      id: 'key_00000000000000c1',
      name: 'k',
      roles: ['read'],
      contact: null,
      hash: 'cd'.repeat(32),
      createdAt: 1,
      revokedAt: null,
      clientId: 'cl_0000000000000001',
    };
    await s.apiKeys.insert(record);
    assert.deepEqual(await s.apiKeys.find(record.id), record);
  });

  it('folds usage into rollups that agree with the raw calls for any window', async () => {
    const s = storage();
    const calls = spreadCalls(3000, 7);
    // Two batches, one of them concurrent with a third: upserts must add up, never overwrite.
    await s.usage.insert(calls.slice(0, 1000), { keepRaw: false });
    await Promise.all([
      s.usage.insert(calls.slice(1000, 2000), { keepRaw: false }),
      s.usage.insert(calls.slice(2000), { keepRaw: false }),
    ]);
    const v1 = calls.filter((c) => c.version === 'w1');
    assert.deepEqual(await s.usage.summary('w1'), {
      calls: v1.length,
      clients: new Set(v1.map((c) => c.clientId)).size,
      endpoints: new Set(v1.map((c) => c.endpoint)).size,
    });
    const windows = [
      { since: 0 },
      { since: t0 + 36_000_000 },
      { since: t0 + 36_000_000, until: t0 + 2 * day + 7_200_000 },
      { since: t0 + day + 60_000, until: t0 + day + 3_600_000, version: 'w2' },
      { since: t0 + day, until: t0 + 3 * day },
      { since: t0 + 5 * day },
      { since: t0 - day, until: t0 + 10 * day, version: 'w2' },
      { since: t0 - day, until: t0 + 2 * day, version: 'w2' },
    ];
    // Other tests share the database: compare this test's versions only.
    const ours = (rows: ClientUsageRow[]) => sortRows(rows.filter((r) => r.version === 'w1' || r.version === 'w2'));
    for (const w of windows)
      assert.deepEqual(ours(await s.usage.byClient(w)), naiveByClient(calls, w), JSON.stringify(w));
    const one = await s.usage.byClient({ since: 0, clientId: 'cl_2' });
    assert.ok(one.length > 0 && one.every((r) => r.clientId === 'cl_2'));
    const days = await s.usage.byDay({ since: t0 + day + 5000, version: 'w1' });
    const expectedDays = [1, 2, 3].map((d) => {
      const inDay = v1.filter((c) => c.at >= t0 + d * day && c.at < t0 + (d + 1) * day);
      return {
        day: t0 + d * day,
        version: 'w1',
        calls: inDay.length,
        clients: new Set(inDay.map((c) => c.clientId)).size,
      };
    });
    assert.deepEqual(days, expectedDays);
    const perClient = (await s.usage.byDay({ since: t0, until: t0 + day, clientId: 'cl_1', perClient: true })).filter(
      (r) => r.version.startsWith('w'),
    );
    const own = calls.filter((c) => c.clientId === 'cl_1' && c.at < t0 + day);
    assert.deepEqual(
      perClient.map((r) => r.calls).reduce((a, b) => a + b, 0),
      own.length,
    );
    assert.ok(perClient.every((r) => r.clientId === 'cl_1' && r.clients === 1));
    const totals = await s.usage.clientTotals({ since: t0 + day + 5000, until: t0 + 3 * day, version: 'w1' });
    const inDays = v1.filter((c) => c.at >= t0 + day && c.at < t0 + 3 * day);
    assert.deepEqual(
      totals,
      [...new Set(inDays.map((c) => c.clientId))].sort().map((clientId) => {
        const own = inDays.filter((c) => c.clientId === clientId);
        return {
          clientId,
          version: 'w1',
          calls: own.length,
          firstSeen: Math.min(...own.map((c) => c.at)),
          lastSeen: Math.max(...own.map((c) => c.at)),
        };
      }),
    );
    assert.deepEqual(
      (await s.usage.list({ version: 'w1', limit: 5, afterId: 0 })).items,
      [],
      'no raw events unless kept',
    );
  });

  it('keeps raw events only when asked, and prunes them by age', async () => {
    const s = storage();
    const calls = [0, 1, 2, 3].map((i) => ({ version: 'vraw', endpoint: 'GET /x', clientId: 'c', at: t0 + i * day }));
    await s.usage.insert(calls, { keepRaw: true });
    assert.equal((await s.usage.list({ version: 'vraw', limit: 10, afterId: 0 })).items.length, 4);
    assert.ok((await s.usage.pruneRaw({ before: t0 + 2 * day })) >= 2);
    assert.deepEqual(
      (await s.usage.list({ version: 'vraw', limit: 10, afterId: 0 })).items.map((c) => c.at),
      [t0 + 2 * day, t0 + 3 * day],
    );
    assert.equal((await s.usage.summary('vraw')).calls, 4, 'rollups outlive the raw events');
  });

  it("scopes users to their owner, and posts to their user's owner", async () => {
    const s = storage();
    const mine = await s.users.create({ values: values('mine'), at, clientId: 'cl_a' });
    const theirs = await s.users.create({ values: values('theirs'), at, clientId: 'cl_b' });
    const nobody = await s.users.create({ values: values('nobody'), at });
    assert.equal(mine.clientId, 'cl_a');
    assert.equal(nobody.clientId, null);
    const names = async (owner?: string | null) =>
      (await s.users.list({ limit: 100, afterId: 0, ...(owner !== undefined ? { owner } : {}) })).items
        .map((u) => u.name ?? '')
        .filter((n) => ['mine', 'theirs', 'nobody'].includes(n));
    assert.deepEqual(await names('cl_a'), ['mine']);
    assert.deepEqual(await names(null), ['nobody']);
    assert.deepEqual(await names(), ['mine', 'theirs', 'nobody']);
    assert.equal(
      (await s.users.update({ id: theirs.id, values: values('x'), expectedRevision: 1, at, owner: 'cl_a' })).kind,
      'missing',
    );
    assert.equal(
      (await s.users.update({ id: theirs.id, values: values('x'), expectedRevision: 7, at, owner: 'cl_a' })).kind,
      'missing',
      "another owner's user is not even stale",
    );
    assert.equal((await s.users.delete({ id: theirs.id, owner: null })).kind, 'missing');
    assert.equal((await s.users.get(theirs.id))?.name, 'theirs');
    assert.equal(
      (await s.users.update({ id: mine.id, values: values('mine'), expectedRevision: 1, at, owner: 'cl_a' })).kind,
      'ok',
    );
    const post = await s.posts.create({ userId: theirs.id, title: 't', body: 'b', at });
    assert.equal(post?.clientId, 'cl_b');
    assert.equal((await s.posts.get({ userId: theirs.id, postId: post!.id }))?.clientId, 'cl_b');
    assert.equal((await s.users.delete({ id: theirs.id, owner: 'cl_b' })).kind, 'ok');
  });
}
