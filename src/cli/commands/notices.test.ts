import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCliHarness } from '../../../test/support/cli-harness.ts';

const { cli, cleanup } = createCliHarness('versionary-notices-cli-');
after(cleanup);

describe('versionary notices', () => {
  it('runs a pass in-process and lists the outbox', async () => {
    const run = await cli(['notices', 'run']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(JSON.parse(run.stdout) as object), [
      'planned',
      'enqueued',
      'sent',
      'retrying',
      'failed',
      'skipped',
    ]);
    const list = await cli(['notices', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^id\s+client\s+subject\s+kind\s+channel\s+recipient\s+status/);
  });

  it('refuses a bad filter with exit 1 and an unknown action with exit 2', async () => {
    const bad = await cli(['notices', 'list', '--status', 'bogus']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /refused \(400/);
    assert.equal((await cli(['notices', 'send'])).code, 2);
  });
});
