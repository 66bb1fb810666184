import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { describeRequestSteps } from '../../src/http/pipeline/request-pipeline.ts';
import { composeGateway } from '../../src/gateway/composition.ts';
import { loadConfig } from '../../src/kernel/config/load-config.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { buildApp } from '../../src/reference/build-app.ts';
import { referenceHandlers } from '../../src/reference/resources/feature.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { renderStepsTable, withTable } from '../../scripts/steps-table.ts';

// The whole request of a versioned GET, every stage, held in a checked-in list: a step added,
// removed or moved shows here, in the service, the gateway and a loop app alike.
const snapshot = JSON.parse(readFileSync(new URL('./steps.snapshot.json', import.meta.url), 'utf8')) as Record<
  string,
  string[]
>;
const clock = createFixedClock(Date.UTC(2026, 5, 1));
const env = { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' };

describe('the steps of GET /api/v2/users/{id}', () => {
  const apps: Record<string, FastifyInstance> = {};
  const closers: Array<() => Promise<void>> = [];

  before(async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    closers.push(() => storage.close());
    apps.service = await buildApp({ config: loadConfig({ env, readFile: () => '' }), storage, clock });

    const configPath = new URL('../../examples/gateway/config.json', import.meta.url).pathname;
    const gatewayConfig = loadConfig({
      env: { ...env, VERSIONARY_CONFIG: configPath },
      readFile: (path) => readFileSync(path, 'utf8'),
    });
    const gatewayStorage = await openSqliteStorage({ path: ':memory:' });
    closers.push(() => gatewayStorage.close());
    const composition = await composeGateway({ config: gatewayConfig, readFile: (path) => readFileSync(path, 'utf8') });
    apps.gateway = await buildApp({ ...composition, config: gatewayConfig, storage: gatewayStorage, clock });

    const options = {
      bundle: createApiBundle(),
      vendor: 'versionary',
      title: 'Users and posts',
      database: 'sqlite::memory:',
      clock,
      handlers: referenceHandlers,
    };
    apps.loop = Fastify({ ...loopServerOptions(options), logger: false });
    await apps.loop.register(versionaryLoop, options);
    for (const app of Object.values(apps)) await app.ready();
  });

  after(async () => {
    for (const app of Object.values(apps)) await app.close();
    for (const close of closers) await close();
  });

  for (const name of ['service', 'gateway', 'loop']) {
    it(`are the checked-in list in the ${name}`, () => {
      assert.deepEqual(describeRequestSteps(apps[name]!, '/api/v2/users/:id'), snapshot['GET /api/v2/users/{id}']);
    });
  }

  it('are the table of docs/architecture.md', async () => {
    const text = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    assert.equal(withTable(text, await renderStepsTable()), text, 'run `npm run steps-table`');
  });
});
