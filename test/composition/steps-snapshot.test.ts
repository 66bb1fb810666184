import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { describeRequestSteps } from '../../src/http/pipeline/request-pipeline.ts';
import { renderStepsTable, withTable } from '../../scripts/steps-table.ts';
import { buildThreeApps, type ThreeApps } from '../support/three-apps.ts';

// The whole request of a versioned GET, every stage, held in a checked-in list: a step added,
// removed or moved shows here, in the service, the gateway and a loop app alike. v1 is deprecated
// in the service and the loop app (their default lifecycle), v2 is current: both have the rulebook
// step (core's `decide` on every call); only v1 adds the public headers of early answers.
const snapshot = JSON.parse(readFileSync(new URL('./steps.snapshot.json', import.meta.url), 'utf8')) as Record<
  string,
  string[]
>;

describe('the steps of GET /api/v2/users/{id} and GET /api/v1/users/{id}', () => {
  let apps: ThreeApps;
  before(async () => {
    apps = await buildThreeApps();
  });
  after(() => apps.close());

  for (const name of ['service', 'gateway', 'loop']) {
    it(`are the checked-in list in the ${name}`, () => {
      assert.deepEqual(
        describeRequestSteps(apps[name as 'service']!, '/api/v2/users/:id'),
        snapshot['GET /api/v2/users/{id}'],
      );
      // The gateway's example deprecates no version: its v1 is as current as its v2.
      assert.deepEqual(
        describeRequestSteps(apps[name as 'service']!, '/api/v1/users/:id'),
        snapshot[name === 'gateway' ? 'GET /api/v2/users/{id}' : 'GET /api/v1/users/{id}'],
      );
    });
  }

  it('are the table of docs/architecture.md', async () => {
    const text = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    assert.equal(withTable(text, await renderStepsTable()), text, 'run `npm run steps-table`');
  });
});
