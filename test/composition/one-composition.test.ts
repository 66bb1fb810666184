import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { describeRequestSteps } from '../../src/http/pipeline/request-pipeline.ts';
import { composeGateway } from '../../src/gateway/composition.ts';
import { loadConfig } from '../../src/kernel/config/load-config.ts';
import { loopPartNames, registeredLoopParts } from '../../src/loop/loop-state.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { buildApp } from '../../src/reference/build-app.ts';
import { referenceHandlers } from '../../src/reference/resources/feature.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';

// One composition: the reference service, the gateway and a loop app written as a team writes it
// register the same parts in the same order, and a versioned GET meets the same steps in each.
const clock = createFixedClock(Date.UTC(2026, 5, 1));
const route = '/api/v2/users/:id';
const env = { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' };

describe('one composition', () => {
  const apps: FastifyInstance[] = [];
  const closers: Array<() => Promise<void>> = [];
  let service: FastifyInstance;
  let gateway: FastifyInstance;
  let loopApp: FastifyInstance;

  before(async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    closers.push(() => storage.close());
    service = await buildApp({ config: loadConfig({ env, readFile: () => '' }), storage, clock });
    apps.push(service);
    await service.ready();

    // The gateway as the example configures it, in front of an API with the same users routes.
    const configPath = new URL('../../examples/gateway/config.json', import.meta.url).pathname;
    const gatewayConfig = loadConfig({
      env: { ...env, VERSIONARY_CONFIG: configPath },
      readFile: (path) => readFileSync(path, 'utf8'),
    });
    const gatewayStorage = await openSqliteStorage({ path: ':memory:' });
    closers.push(() => gatewayStorage.close());
    const composition = await composeGateway({
      config: gatewayConfig,
      readFile: (path) => readFileSync(path, 'utf8'),
    });
    gateway = await buildApp({ ...composition, config: gatewayConfig, storage: gatewayStorage, clock });
    apps.push(gateway);
    await gateway.ready();

    // A team's app: its own Fastify, the preset, its handlers.
    const options = {
      bundle: createApiBundle(),
      vendor: 'versionary',
      title: 'Users and posts',
      database: 'sqlite::memory:',
      clock,
      handlers: referenceHandlers,
    };
    loopApp = Fastify({ ...loopServerOptions(options), logger: false });
    await loopApp.register(versionaryLoop, options);
    apps.push(loopApp);
    await loopApp.ready();
  });

  after(async () => {
    for (const app of apps) await app.close();
    for (const close of closers) await close();
  });

  it('registers every part of the loop, in the documented order, in all three', () => {
    for (const app of [service, gateway, loopApp]) assert.deepEqual(registeredLoopParts(app), loopPartNames);
  });

  it('runs the same steps for a versioned GET in all three', () => {
    const steps = describeRequestSteps(service, route);
    assert.ok(steps.includes('identify:authenticate'), steps.join(', '));
    assert.ok(steps.includes('gate:removed-gate'), steps.join(', '));
    assert.deepEqual(describeRequestSteps(gateway, route), steps, 'the gateway');
    assert.deepEqual(describeRequestSteps(loopApp, route), steps, 'a loop app');
  });

  it('differs in the handler and the forwarder only: the same route answers in each', async () => {
    const unknown = await Promise.all(
      [service, gateway, loopApp].map((app) => app.inject({ url: '/api/v2/users/1' }).then((r) => r.statusCode)),
    );
    // No credential: the same refusal before any handler or forwarder runs.
    assert.deepEqual(unknown, [401, 401, 401]);
  });
});
