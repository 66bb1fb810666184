import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeRequestSteps } from '../../src/http/pipeline/request-pipeline.ts';
import { loopPartNames, registeredLoopParts } from '../../src/loop/host/loop-state.ts';
import { buildThreeApps, type ThreeApps } from '../support/three-apps.ts';

// One composition: the reference service, the gateway and a loop app written as a team writes it
// register the same parts in the same order, and a versioned GET meets the same steps in each.
const route = '/api/v2/users/:id';

describe('one composition', () => {
  let apps: ThreeApps;
  before(async () => {
    apps = await buildThreeApps();
  });
  after(() => apps.close());

  it('registers every part of the loop, in the documented order, in all three', () => {
    for (const app of [apps.service, apps.gateway, apps.loop])
      assert.deepEqual(registeredLoopParts(app), loopPartNames);
  });

  it('runs the same steps for a versioned GET in all three', () => {
    const steps = describeRequestSteps(apps.service, route);
    assert.ok(
      steps.some((step) => step.endsWith(':authenticate')),
      steps.join(', '),
    );
    assert.ok(
      steps.some((step) => step.endsWith(':removed-gate')),
      steps.join(', '),
    );
    assert.deepEqual(describeRequestSteps(apps.gateway, route), steps, 'the gateway');
    assert.deepEqual(describeRequestSteps(apps.loop, route), steps, 'a loop app');
  });

  it('differs in the handler and the forwarder only: the same route refuses the same way in each', async () => {
    const statuses = await Promise.all(
      [apps.service, apps.gateway, apps.loop].map((app) =>
        app.inject({ url: '/api/v2/users/1' }).then((r) => r.statusCode),
      ),
    );
    // No credential: the same refusal before any handler or forwarder runs.
    assert.deepEqual(statuses, [401, 401, 401]);
  });
});
