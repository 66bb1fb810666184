import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createFixedClock } from '../../core/clock/index.ts';
import { MONTH_MS } from '../../core/lifecycle/index.ts';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite-storage.ts';
import { createLifecycleRuntime } from './runtime.ts';
import { parseLifecycleSettings } from './settings.ts';

it('moves the generation on a change of lifecycle state only, not on every refresh', async () => {
  const storage = await openSqliteStorage({ path: ':memory:' });
  const clock = createFixedClock(Date.UTC(2026, 0, 15));
  const runtime = await createLifecycleRuntime({
    settings: parseLifecycleSettings({ file: {}, errors: [] }),
    store: storage.lifecycle,
    clock,
    prefix: '/api',
    versions: [{ name: 'v1' }, { name: 'v2' }],
    defaultDeprecated: ['v1'],
  });
  await runtime.refresh();
  const start = runtime.generation();
  await runtime.refresh();
  assert.equal(runtime.generation(), start, 'the periodic refresh of the same state');
  const v1 = (await storage.lifecycle.listSchedules()).find((s) => s.version === 'v1')!;
  await storage.lifecycle.saveSchedule({ ...v1, sunsetAt: v1.sunsetAt + MONTH_MS });
  await runtime.refresh();
  assert.equal(runtime.generation(), start + 1, 'a rescheduled sunset');
  // Past the sunset the version is flagged removed at its next verdict: a change too.
  clock.set(v1.sunsetAt + MONTH_MS + 1);
  runtime.verdict({ version: 'v1', method: 'GET', path: '/users' });
  assert.equal(runtime.generation(), start + 2);
  await storage.close();
});

it('persists a passed sunset at the next refresh, with no call to that version', async () => {
  const storage = await openSqliteStorage({ path: ':memory:' });
  const clock = createFixedClock(Date.UTC(2026, 0, 15));
  const runtime = await createLifecycleRuntime({
    settings: parseLifecycleSettings({ file: {}, errors: [] }),
    store: storage.lifecycle,
    clock,
    prefix: '/api',
    versions: [{ name: 'v1' }, { name: 'v2' }],
    defaultDeprecated: ['v1'],
  });
  const v1 = (await storage.lifecycle.listSchedules()).find((s) => s.version === 'v1')!;
  await runtime.refresh();
  assert.equal(runtime.versions().find((v) => v.name === 'v1')!.schedule!.removed, false, 'before its sunset');
  const start = runtime.generation();
  clock.set(v1.sunsetAt + 1);
  await runtime.refresh();
  assert.equal(runtime.generation(), start + 1);
  assert.equal(runtime.versions().find((v) => v.name === 'v1')!.schedule!.removed, true);
  // The write is not awaited by the refresh: give it a few turns to land.
  const storedRemoved = async () => (await storage.lifecycle.listSchedules()).find((s) => s.version === 'v1')!.removed;
  for (let i = 0; i < 50 && !(await storedRemoved()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await storedRemoved(), true, 'written to the store, so every instance agrees');
  await storage.close();
});
