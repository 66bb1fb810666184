import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp } from '../support/test-app.ts';

const post = (payload: object, key?: string) => ({
  method: 'POST' as const,
  url: '/api/v2/users',
  payload,
  headers: key === undefined ? {} : { 'idempotency-key': key },
});

test('a retry with the same key and body replays the first response and creates nothing', async () => {
  const t = await createTestApp();
  const first = await t.app.inject(post({ name: 'Ada' }, '"order-1"'));
  assert.equal(first.statusCode, 201);
  const again = await t.app.inject(post({ name: 'Ada' }, '"order-1"'));
  assert.equal(again.statusCode, 201);
  assert.equal(again.body, first.body);
  assert.equal(again.headers.location, first.headers.location);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await t.storage.users.count(), 1);
  assert.equal(
    (await t.app.inject(post({ name: 'Ada' }, 'order-2'))).statusCode,
    201,
    'another key is another request',
  );
  assert.equal(await t.storage.users.count(), 2);
  await t.close();
});

test('the same key with another body is 422; malformed keys are 400', async () => {
  const t = await createTestApp();
  await t.app.inject(post({ name: 'Ada' }, 'k'));
  assertProblem(await t.app.inject(post({ name: 'Bob' }, 'k')), { status: 422, code: 'IDEMPOTENCY_MISMATCH' });
  for (const bad of ['', ' ', 'x'.repeat(256), 'caf\u00e9']) {
    const res = await t.app.inject(post({ name: 'Eve' }, bad));
    assert.equal(res.statusCode, 400, JSON.stringify(bad));
  }
  assert.equal(await t.storage.users.count(), 1);
  await t.close();
});

test('keys are per client and expire after 24 hours', async () => {
  const t = await createTestApp();
  const { key } = (
    await t.app.inject({
      method: 'POST',
      url: '/admin/v1/api-keys',
      headers: adminHeaders,
      payload: { name: 'w', roles: ['read', 'write'] },
    })
  ).json();
  await t.app.inject(post({ name: 'Ada' }, 'shared'));
  const other = await t.app.inject({
    ...post({ name: 'Ada' }, 'shared'),
    headers: { 'idempotency-key': 'shared', authorization: `Bearer ${key}` },
  });
  assert.equal(other.headers['idempotent-replayed'], undefined, 'another client, another record');
  assert.equal(await t.storage.users.count(), 2);
  t.clock.advance(24 * 3600_000 + 1);
  const later = await t.app.inject(post({ name: 'Ada' }, 'shared'));
  assert.equal(later.headers['idempotent-replayed'], undefined);
  assert.equal(await t.storage.users.count(), 3);
  await t.close();
});

test('while the first request is still running, the same key gets 409', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const t = await createTestApp({
    wrapResources: (storage) => ({
      ...storage,
      users: {
        ...storage.users,
        create: async (o) => {
          await gate;
          return storage.users.create(o);
        },
      },
    }),
  });
  const first = t.app.inject(post({ name: 'Slow' }, 'busy'));
  await new Promise((r) => setTimeout(r, 50));
  const second = await t.app.inject(post({ name: 'Slow' }, 'busy'));
  assertProblem(second, { status: 409, code: 'IDEMPOTENCY_IN_FLIGHT' });
  release();
  assert.equal((await first).statusCode, 201);
  assert.equal((await t.app.inject(post({ name: 'Slow' }, 'busy'))).headers['idempotent-replayed'], 'true');
  assert.equal(await t.storage.users.count(), 1);
  await t.close();
});

test('a request that ends in 5xx is not stored: the retry runs again, and only then is stored', async () => {
  let failures = 1;
  const t = await createTestApp({
    wrapResources: (storage) => ({
      ...storage,
      users: {
        ...storage.users,
        create: async (o) => {
          if (failures-- > 0) throw new Error('disk full');
          return storage.users.create(o);
        },
      },
    }),
  });
  const failed = await t.app.inject(post({ name: 'Retry' }, 'five-hundred'));
  assertProblem(failed, { status: 500, code: 'INTERNAL' });
  assert.deepEqual(
    await t.db.selectFrom('versionary_idempotency_keys').selectAll().execute(),
    [],
    'nothing kept for the key after a 5xx',
  );
  const retried = await t.app.inject(post({ name: 'Retry' }, 'five-hundred'));
  assert.equal(retried.statusCode, 201, retried.body);
  assert.equal(retried.headers['idempotent-replayed'], undefined, 'the retry ran, it was not replayed');
  assert.equal(await t.storage.users.count(), 1);
  const replayed = await t.app.inject(post({ name: 'Retry' }, 'five-hundred'));
  assert.equal(replayed.headers['idempotent-replayed'], 'true');
  assert.equal(replayed.body, retried.body);
  assert.equal(await t.storage.users.count(), 1);
  await t.close();
});

test('20 concurrent duplicates with one Idempotency-Key create exactly one resource', async () => {
  // Every create waits until all 20 requests are in, so they truly overlap.
  let arrived = 0;
  let release!: () => void;
  const allIn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const t = await createTestApp({
    wrapResources: (storage) => ({
      ...storage,
      users: {
        ...storage.users,
        create: async (o) => {
          await allIn;
          return storage.users.create(o);
        },
      },
    }),
  });
  // If two requests ever ran, 19 would never finish: the timer lets them through to be caught.
  const fallback = setTimeout(() => release(), 3000);
  const inject = () =>
    t.app.inject(post({ name: 'Once' }, 'burst')).finally(() => {
      if (++arrived === 19) release();
    });
  const responses = await Promise.all(Array.from({ length: 20 }, inject));
  clearTimeout(fallback);
  assert.equal(await t.storage.users.count(), 1, 'one user, whatever the interleaving');
  const ran = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
  assert.equal(ran.length, 1, 'exactly one request ran');
  for (const res of responses) {
    if (res.statusCode === 201) {
      assert.equal(res.body, ran[0]!.body, 'every 201 is the same response');
    } else {
      assertProblem(res, { status: 409, code: 'IDEMPOTENCY_IN_FLIGHT' });
      assert.equal(res.headers['retry-after'], '1');
    }
  }
  const after = await t.app.inject(post({ name: 'Once' }, 'burst'));
  assert.equal(after.headers['idempotent-replayed'], 'true');
  assert.equal(after.body, ran[0]!.body);
  await t.close();
});
