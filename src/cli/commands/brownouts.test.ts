import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCliHarness } from '../../../test/support/cli-harness.ts';

const { cli, cleanup } = createCliHarness('versionary-brownouts-cli-');
after(cleanup);

// In-process on the reference service's database at 2026-01-01, where v1's sunset is 2026-06-30.
describe('versionary brownouts', () => {
  it('schedules the default progression from the sunset, lists it and removes a window', async () => {
    const scheduled = await cli(['brownouts', 'schedule', '--version', 'v1', '--format', 'json']);
    assert.equal(scheduled.code, 0, scheduled.stderr);
    const windows = (JSON.parse(scheduled.stdout) as { data: Array<{ id: string; startsAt: string; endsAt: string }> })
      .data;
    assert.deepEqual(
      windows.map((w) => [w.startsAt, w.endsAt]),
      [
        ['2026-05-31T00:00:00.000Z', '2026-05-31T01:00:00.000Z'],
        ['2026-06-16T00:00:00.000Z', '2026-06-16T04:00:00.000Z'],
        ['2026-06-23T00:00:00.000Z', '2026-06-24T00:00:00.000Z'],
      ],
    );
    const list = await cli(['brownouts', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^id\s+subject\s+starts\s+ends\s+target\s+source/);
    assert.equal(list.stdout.trim().split('\n').length, 4, list.stdout);
    const again = await cli(['brownouts', 'schedule', '--version', 'v1', '--step', '14d:1h']);
    assert.equal(again.code, 1, 'an overlap is refused');
    assert.match(again.stderr, /overlaps the brownout from 2026-06-16/);
    const removed = await cli(['brownouts', 'remove', windows[0]!.id]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal((await cli(['brownouts', 'list'])).stdout.trim().split('\n').length, 3);
  });

  it('adds a window aimed at named clients, refusing unknown ones', async () => {
    const unknown = await cli([
      'brownouts',
      'add',
      '--version',
      'v1',
      '--starts',
      '2026-05-01T10:00:00Z',
      '--ends',
      '2026-05-01T11:00:00Z',
      '--clients',
      'cl_nobody',
    ]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no client cl_nobody/);
  });

  it('refuses a missing option or both targets with exit 2', async () => {
    assert.equal((await cli(['brownouts', 'add', '--version', 'v1'])).code, 2);
    assert.equal((await cli(['brownouts', 'schedule'])).code, 2);
    const both = await cli(['brownouts', 'schedule', '--version', 'v1', '--clients', 'a', '--called-within-days', '3']);
    assert.equal(both.code, 2);
    assert.equal((await cli(['brownouts', 'remove'])).code, 2);
    assert.equal((await cli(['brownouts', 'stop'])).code, 2);
  });
});
