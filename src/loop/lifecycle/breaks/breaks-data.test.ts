import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFixedClock } from '../../../core/clock/index.ts';
import { DAY_MS } from '../../../core/lifecycle/index.ts';
import { openSqliteStorage } from '../../../storage/sqlite/open-sqlite-storage.ts';
import { breaksBundle } from '../../../../test/portal/breaks-support.ts';
import { createLifecycleRuntime } from '../runtime.ts';
import { parseLifecycleSettings } from '../settings.ts';
import type { Storage } from '../../../kernel/ports/index.ts';
import { gatherBreaks } from './breaks-data.ts';
import type { BreaksOptions } from './breaks-options.ts';

const now = Date.UTC(2026, 0, 15, 12, 30);
const HOUR_MS = 3_600_000;

/** Record calls through the port's per-operation counts, one call each. */
async function record(
  storage: Storage,
  calls: Array<{ clientId: string; version: string; endpoint: string; at: number }>,
) {
  await storage.usage.addOperationCounts(
    calls.map((c) => ({ ...c, hour: c.at - (c.at % HOUR_MS), calls: 1, lastSeen: c.at })),
  );
}

describe('gatherBreaks', () => {
  let storage: Storage & { close(): Promise<void> };
  let options: BreaksOptions;
  before(async () => {
    storage = await openSqliteStorage({ path: ':memory:' });
    const clock = createFixedClock(now);
    const errors: string[] = [];
    const runtime = await createLifecycleRuntime({
      settings: parseLifecycleSettings({ file: {}, errors }),
      store: storage.lifecycle,
      clock,
      prefix: '/api',
      versions: [{ name: 'v1' }, { name: 'v2' }],
      defaultDeprecated: ['v1'],
    });
    assert.deepEqual(errors, []);
    options = {
      bundle: breaksBundle(),
      runtime,
      clock,
      prefix: '/api',
      storage,
      flushUsage: async () => {},
    };
    const at = now - HOUR_MS;
    await record(storage, [
      ...Array.from({ length: 3 }, () => ({ clientId: 'cl_one', version: 'v1', endpoint: 'GET /users/{id}', at })),
      // Out of the window: never counted, so GET /users, which it reaches, is not this client's.
      { clientId: 'cl_one', version: 'v1', endpoint: 'GET /users', at: now - 8 * DAY_MS },
      { clientId: 'cl_one', version: 'v2', endpoint: 'GET /users', at },
      { clientId: 'cl_two', version: 'v1', endpoint: 'GET /users', at },
    ]);
  });
  after(() => storage.close());

  it('defaults to the version called most and its replacement, and keeps only the changes that reach its calls', async () => {
    const data = await gatherBreaks(options, { clientId: 'cl_one' });
    assert.equal(data.from, 'v1');
    assert.equal(data.to, 'v2');
    assert.deepEqual(data.versions, ['v1', 'v2']);
    assert.deepEqual(data.called, [{ endpoint: 'GET /users/{id}', calls: 3, lastSeen: now - HOUR_MS }]);
    assert.deepEqual(
      data.changes.map((c) => [c.rule, c.direction, c.operations]),
      [['response-property-removed', 'response', [{ endpoint: 'GET /users/{id}', calls: 3, lastSeen: now - HOUR_MS }]]],
    );
    assert.equal(data.changes[0]!.text, 'The response no longer has the field "login".');
    assert.deepEqual(data.changes[0]!.guide, {
      oldBehaviour: 'The response had the field `login`.',
      newBehaviour: 'Response field `UserDetail.login` was removed.',
    });
    assert.equal(data.guideUrl, '/api/versions/v1/migration-guide');
    assert.ok(data.notes.includes('v2: The single user no longer carries `login`.'));
  });

  it('another client, other calls: only the list change reaches it', async () => {
    const data = await gatherBreaks(options, { clientId: 'cl_two' });
    assert.deepEqual(
      data.changes.map((c) => [c.rule, c.operations.map((o) => o.endpoint)]),
      [['response-type-changed', ['GET /users']]],
    );
  });

  it('an explicit pair: the same version breaks nothing; a client with no calls has nothing tied to it', async () => {
    const same = await gatherBreaks(options, { clientId: 'cl_one', from: 'v2', to: 'v2' });
    assert.deepEqual([same.called.length, same.changes], [1, []]);
    const quiet = await gatherBreaks(options, { clientId: 'cl_none', from: 'v1' });
    assert.deepEqual([quiet.from, quiet.to, quiet.called, quiet.changes], ['v1', 'v2', [], []]);
  });

  it('refuses an unknown version, and a target older than the current one', async () => {
    for (const query of [{ from: 'v9' }, { to: 'v1<' }, { from: 'v2', to: 'v1' }])
      await assert.rejects(gatherBreaks(options, { clientId: 'cl_one', ...query }), { code: 'VALIDATION_FAILED' });
  });
});
