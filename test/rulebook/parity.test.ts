import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import {
  parityCases,
  parityFinalMoments,
  parityConfig,
  parityDocumentEdit,
  parityEpoch,
} from '../support/parity-cases.ts';
import { prepareParity, runParity, runRateLimitParity, type ParityTarget } from '../support/parity-runner.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';

// One list of cases, three deciders: core's `decide` on the table each target serves, the
// service, and `versionary gateway` in front of the Python upstream. A difference is a rule that drifted.
describe('parity: core, the service and the gateway answer every case alike', () => {
  let now = parityEpoch;
  const clock = { now: () => now };
  const setNow = (at: number) => {
    now = at;
  };
  let service: StartedService;
  let python: PythonUpstream;
  let gateway: TestGateway;

  before(async () => {
    python = await startPythonUpstream();
    [service, gateway] = await Promise.all([
      startTestService({ clock, file: parityConfig }),
      startTestGateway({ upstream: python.url, file: parityConfig, clock, editDocument: parityDocumentEdit }),
    ]);
  });
  after(async () => {
    await Promise.all([service?.stop(), gateway?.stop()]);
    await python?.stop();
  });

  it('has cases for HEAD, per-client rows and every probe spelling', () => {
    assert.ok(parityCases.some((c) => c.method === 'HEAD'));
    assert.ok(parityCases.some((c) => c.client === 'acme' && c.expect.allowed));
    assert.ok(parityCases.some((c) => c.expect.problemType === '/problems/closed-to-new-clients'));
    assert.ok(parityCases.some((c) => c.expect.problemType === '/problems/element-removed'));
    assert.ok(parityCases.some((c) => c.expect.problemType === '/problems/version-retired-for-client'));
    for (const moment of ['brownout', 'progressive', 'versionBrownout', 'v1Removed'])
      assert.ok(
        parityCases.some((c) => c.at === moment),
        moment,
      );
    for (const method of ['PROPFIND', 'PURGE', 'TRACE', 'OPTIONS'])
      assert.ok(
        parityCases.some((c) => c.method === method),
        method,
      );
    for (const spelling of [
      '%75',
      '%2e%2e',
      '%2f',
      '//',
      ';',
      'users/',
      'USERS',
      '%zz',
      '%00',
      'ftp://',
      '\xC0',
      '%e9',
    ])
      assert.ok(
        parityCases.some((c) => c.target.includes(spelling)),
        spelling,
      );
  });

  it('the service', async () => {
    const target: ParityTarget = {
      name: 'service',
      base: service.base,
      adminKey: 'test-admin-key-0123456789',
      setNow,
    };
    const clients = await prepareParity(target);
    assert.deepEqual(await runParity(target, clients), []);
    assert.deepEqual(await runRateLimitParity(target, clients), []);
    assert.deepEqual(await runParity(target, clients, parityFinalMoments), []);
  });

  it('versionary gateway', async () => {
    const target: ParityTarget = { name: 'gateway', base: gateway.base, adminKey: gatewayAdminKey, setNow };
    const clients = await prepareParity(target);
    assert.deepEqual(await runParity(target, clients), []);
    assert.deepEqual(await runRateLimitParity(target, clients), []);
    assert.deepEqual(await runParity(target, clients, parityFinalMoments), []);
  });
});
