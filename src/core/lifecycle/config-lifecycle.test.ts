import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkLifecycleConfigShape, createConfigLifecycle } from './config-lifecycle.ts';
import { clockAt } from '../../../test/support/lifecycle-dates.ts';

const versions = ['v1', 'v2'];

describe('checkLifecycleConfigShape: the mistakes that used to pass silently', () => {
  it('refuses a deprecatedAt with no sunsetAt (the version would stay current, with no headers)', () => {
    const errors = checkLifecycleConfigShape({
      config: { versions: { v1: { deprecatedAt: '2026-11-01' } } },
      versions,
    });
    assert.equal(errors.length, 1);
    assert.match(
      errors[0]!,
      /^lifecycle\.versions\.v1\.sunsetAt is required with a deprecatedAt \(rule concrete-sunset\)/,
    );
  });

  it('refuses an unknown key such as the typo `sunset`', () => {
    const errors = checkLifecycleConfigShape({
      config: { versions: { v1: { deprecatedAt: '2026-11-01', sunset: '2027-06-01' } } },
      versions,
    });
    assert.match(
      errors.join('\n'),
      /lifecycle\.versions\.v1\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\?/,
    );
  });

  it('refuses unknown keys at the top and in an endpoint deprecation too', () => {
    const errors = checkLifecycleConfigShape({
      config: {
        version: {},
        endpointDeprecations: [
          { version: 'v2', method: 'GET', path: '/x', deprecatedAt: '2026-01-01', sunsetAt: '2027-01-01', sunset: 1 },
        ],
      },
      versions,
    });
    assert.match(
      errors[0]!,
      /^lifecycle\.version is not a lifecycle key \(rule valid-config\); did you mean versions\?/,
    );
    assert.match(
      errors[1]!,
      /^lifecycle\.endpointDeprecations\[0\]\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\?/,
    );
  });
});

describe('createConfigLifecycle: release dates', () => {
  it('shows an undeclared release date as null in the document, never an invented one', () => {
    const lifecycle = createConfigLifecycle({
      config: {
        versions: {
          v1: { deprecatedAt: '2026-01-01', sunsetAt: '2026-12-31', migrationUrl: 'https://x.example/v2' },
          v2: { releasedAt: '2025-06-01' },
        },
      },
      clock: clockAt('2026-03-01'),
      prefix: '/api',
      versions,
    });
    const released = lifecycle.document!().versions.map((v) => [v.name, v.releasedAt]);
    assert.deepEqual(released, [
      ['v1', null],
      ['v2', '2025-06-01T00:00:00.000Z'],
    ]);
  });

  it('keeps the declared order when only a later version has a date (v1 removed, v2 released 2024)', () => {
    const lifecycle = createConfigLifecycle({
      config: { versions: { v1: { removed: true }, v2: { releasedAt: '2024-03-01T00:00:00Z' } } },
      clock: clockAt('2026-03-01'),
      prefix: '/api',
      versions: ['v2'],
    });
    assert.deepEqual(
      lifecycle.versions!().map((v) => v.name),
      ['v1', 'v2'],
    );
    assert.ok(lifecycle.verdict({ version: 'v1', method: 'GET', path: '/books' }).removed);
  });

  it('refuses declared release dates that go back in the declared order', () => {
    const errors = checkLifecycleConfigShape({
      config: { versions: { v1: { releasedAt: '2025-01-01' }, v2: { releasedAt: '2024-01-01' } } },
      versions,
    });
    assert.match(errors.join('\n'), /lifecycle\.versions: v2 is released at 2024-01-01T00:00:00\.000Z, not after v1/);
  });
});
