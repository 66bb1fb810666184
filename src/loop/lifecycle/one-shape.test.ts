import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../../core/clock/index.ts';
import {
  DAY_MS,
  checkLifecycleConfigShape,
  createConfigLifecycle,
  type LifecycleConfig,
} from '../../core/lifecycle/index.ts';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite-storage.ts';
import { manifestLinkOf } from './manifest-url.ts';
import { createLifecycleRuntime } from './runtime.ts';
import { parseLifecycleSettings } from './settings.ts';

// One lifecycle object, written once: the routing plugin's `lifecycle` option and the config file
// (the loop's `settings`, the gateway's file) must take it alike and answer alike.
const lifecycle = {
  versions: {
    v1: {
      releasedAt: '2025-01-01',
      deprecatedAt: Date.UTC(2026, 0, 1),
      sunsetAt: '2026-12-31T00:00:00Z',
      migrationUrl: 'https://example.com/guides/v1-to-v2',
    },
    v2: { releasedAt: Date.UTC(2025, 6, 1) },
  },
  endpointDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/books/{id}/summary',
      deprecatedAt: '2026-02-01',
      sunsetAt: Date.UTC(2027, 1, 1),
      migrationUrl: 'https://example.com/guides/summary',
    },
  ],
  headerStyle: 'rfc',
  audience: 'public',
} satisfies LifecycleConfig;

const keys = [
  { version: 'v1', method: 'GET', path: '/books' },
  { version: 'v2', method: 'GET', path: '/books' },
  { version: 'v2', method: 'GET', path: '/books/{id}/summary' },
];

describe('one lifecycle shape for the plugin and the config file', () => {
  it('is accepted by both, and both give the same verdict before, during and after the deprecation', async () => {
    assert.deepEqual(checkLifecycleConfigShape({ config: lifecycle, versions: ['v1', 'v2'] }), []);
    const errors: string[] = [];
    const settings = parseLifecycleSettings({ file: { ...lifecycle }, errors });
    assert.deepEqual(errors, []);
    const storage = await openSqliteStorage({ path: ':memory:' });
    try {
      const clock = createFixedClock(Date.UTC(2025, 11, 1));
      const plugin = createConfigLifecycle({ config: lifecycle, clock, prefix: '/api', versions: ['v1', 'v2'] });
      const service = await createLifecycleRuntime({
        settings,
        store: storage.lifecycle,
        clock,
        prefix: '/api',
        versions: [{ name: 'v1' }, { name: 'v2' }],
      });
      for (const at of [Date.UTC(2025, 11, 1), Date.UTC(2026, 5, 1), Date.UTC(2027, 0, 2), Date.UTC(2027, 2, 1)]) {
        clock.set(at);
        await service.refresh();
        for (const key of keys) {
          const [a, b] = [plugin.verdict(key), service.verdict(key)];
          const day = new Date(at).toISOString().slice(0, 10);
          // The service serves the API's deprecation manifest too, and links it after the plugin's links.
          const served = a.headers.Link
            ? { ...a.headers, Link: `${a.headers.Link}, ${manifestLinkOf('/api')}` }
            : a.headers;
          assert.deepEqual(b.headers, served, `${day} ${key.version} ${key.path}: headers`);
          assert.equal(a.deprecated, b.deprecated, `${day} ${key.version} ${key.path}: deprecated`);
          assert.equal(a.removed?.code, b.removed?.code, `${day} ${key.version} ${key.path}: removed`);
        }
      }
      assert.ok(plugin.verdict(keys[0]!).removed, 'v1 is gone after its sunset');
    } finally {
      await storage.close();
    }
  });

  it('reports the same mistakes from both, every one at once, each with its path', () => {
    const bad = {
      versions: { v1: { sunset: '2027-01-01', deprecatedAt: 'soon', reason: 'whim' } },
      endpointDeprecations: [{ version: 'v2', method: 'GET', sunsetAt: 'later' }],
      removedStatus: 500,
    };
    const errors: string[] = [];
    parseLifecycleSettings({ file: bad, errors });
    const plugin = checkLifecycleConfigShape({ config: bad, versions: ['v1', 'v2'] });
    const expected = [
      /versions\.v1\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\?/,
      /versions\.v1\.deprecatedAt must be an ISO 8601 date or epoch milliseconds, not "soon"/,
      /versions\.v1\.reason must be "planned" or "critical-fix", not "whim"/,
      /endpointDeprecations\[0\]\.path is required/,
      /endpointDeprecations\[0\]\.sunsetAt must be an ISO 8601 date or epoch milliseconds, not "later"/,
      /removedStatus must be 410 or 404, not 500/,
      /versions\.v1\.sunsetAt is required with a deprecatedAt \(rule concrete-sunset\)/,
    ];
    for (const pattern of expected) {
      assert.equal(errors.filter((e) => pattern.test(e)).length, 1, `file: ${pattern}\n${errors.join('\n')}`);
      assert.equal(plugin.filter((e) => pattern.test(`${e}`)).length, 1, `plugin: ${pattern}\n${plugin.join('\n')}`);
    }
    assert.ok(
      plugin.every((e) => e.startsWith('lifecycle.')),
      'the plugin names its option',
    );
    assert.ok(
      errors.every((e) => !e.startsWith('lifecycle.')),
      'the file names its own keys',
    );
  });

  it('takes the former name `endpoints` in both, with the VERSIONARY_DEP002 warning', () => {
    const { endpointDeprecations, ...rest } = lifecycle;
    const old = { ...rest, endpoints: endpointDeprecations };
    assert.deepEqual(checkLifecycleConfigShape({ config: old, versions: ['v1', 'v2'] }), []);
    const errors: string[] = [];
    const settings = parseLifecycleSettings({ file: old, errors });
    assert.deepEqual(errors, []);
    assert.deepEqual(
      settings.endpointDeprecations.map((e) => `${e.method} ${e.path} ${e.sunsetAt - e.deprecatedAt! > 300 * DAY_MS}`),
      ['GET /books/{id}/summary true'],
    );
    assert.deepEqual(
      settings.warnings?.map((w) => w.code),
      ['VERSIONARY_DEP002'],
    );
    const both = { ...lifecycle, endpoints: endpointDeprecations };
    assert.match(
      checkLifecycleConfigShape({ config: both, versions: ['v1', 'v2'] }).join('\n'),
      /lifecycle\.endpoints is the former name of endpointDeprecations: give only endpointDeprecations/,
    );
  });
});
