import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNoticesSettings } from './settings.ts';

describe('parseNoticesSettings', () => {
  it('has documented defaults', () => {
    const errors: string[] = [];
    const s = parseNoticesSettings({ file: {}, errors });
    assert.deepEqual(errors, []);
    assert.deepEqual(
      [
        s.intervalSeconds,
        s.reminderDays,
        s.clearDays,
        s.lookbackDays,
        s.brownoutNoticeDays,
        s.maxAttempts,
        s.retryBaseSeconds,
        s.publicUrl,
        s.brownouts,
      ],
      [60, [90, 30, 7, 1], 14, 90, 7, 8, 30, 'http://127.0.0.1:3000', []],
    );
  });

  it('lists every error at once', () => {
    const errors: string[] = [];
    parseNoticesSettings({
      file: {
        publicUrl: 'ftp://x',
        notices: {
          intervalSeconds: -1,
          reminderDays: [0],
          clearDays: 'x',
          maxAttempts: 1000,
          surprise: true,
          brownouts: [
            { version: 'one', startsAt: 'soon', endsAt: '2026-01-01T00:00:00Z' },
            { version: 'v1', endpoint: 'users', startsAt: '2026-01-02T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' },
          ],
        },
      },
      errors,
    });
    for (const expected of [
      /publicUrl/,
      /intervalSeconds/,
      /reminderDays/,
      /clearDays/,
      /maxAttempts/,
      /unknown key "surprise"/,
      /brownouts\[0\]\.version/,
      /brownouts\[0\]: startsAt/,
      /brownouts\[1\]\.endpoint/,
      /brownouts\[1\]: endsAt must be after/,
    ]) {
      assert.ok(
        errors.some((e) => expected.test(e)),
        `${expected} in ${errors.join(' | ')}`,
      );
    }
  });

  it('reads brownouts and trims the public URL', () => {
    const errors: string[] = [];
    const s = parseNoticesSettings({
      file: {
        publicUrl: 'https://api.example.com/',
        notices: {
          brownouts: [
            {
              version: 'v1',
              endpoint: 'GET /users/{id}',
              startsAt: '2026-03-01T10:00:00Z',
              endsAt: '2026-03-01T11:00:00Z',
            },
          ],
        },
      },
      errors,
    });
    assert.deepEqual(errors, []);
    assert.equal(s.publicUrl, 'https://api.example.com');
    assert.deepEqual(s.brownouts, [
      {
        id: 'cfg-1',
        version: 'v1',
        endpoint: 'GET /users/{id}',
        startsAt: Date.UTC(2026, 2, 1, 10),
        endsAt: Date.UTC(2026, 2, 1, 11),
      },
    ]);
  });

  it('reads a brownout aimed at some clients, and refuses a usage-chosen one from the file', () => {
    const errors: string[] = [];
    const window = { version: 'v1', startsAt: '2026-03-01T10:00:00Z', endsAt: '2026-03-01T11:00:00Z' };
    const s = parseNoticesSettings({
      file: {
        notices: {
          brownouts: [
            { ...window, clients: ['cl_a', 'cl_a', 'cl_b'] },
            { ...window, calledWithinDays: 30 },
            { ...window, clients: [], target: 'all' },
          ],
        },
      },
      errors,
    });
    assert.deepEqual(s.brownouts[0]?.clients, ['cl_a', 'cl_b']);
    assert.equal(errors.length, 3, errors.join('\n'));
    assert.match(errors.join('\n'), /brownouts\[1\]\.calledWithinDays is not read from the config file/);
    assert.match(errors.join('\n'), /brownouts\[2\]\.clients must be a non-empty list/);
    assert.match(errors.join('\n'), /brownouts\[2\]: unknown key "target"/);
  });
});
