import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkKnownKeys, checkVersionEntry, versionEntryKeys } from './config-keys.ts';

describe('checkVersionEntry', () => {
  it('accepts a conforming entry, and a removed version with no sunset', () => {
    assert.deepEqual(
      checkVersionEntry({
        entry: { releasedAt: '2025-01-01', deprecatedAt: '2026-01-01', sunsetAt: '2026-12-01' },
        where: 'versions.v1',
      }),
      [],
    );
    assert.deepEqual(
      checkVersionEntry({ entry: { deprecatedAt: '2026-01-01', removed: true }, where: 'versions.v0' }),
      [],
    );
  });

  it('refuses a deprecation without a sunset, naming the version, the key and the rule', () => {
    const [error, ...rest] = checkVersionEntry({
      entry: { deprecatedAt: '2026-11-01' },
      where: 'lifecycle.versions.v1',
    });
    assert.deepEqual(rest, []);
    assert.match(error!, /^lifecycle\.versions\.v1\.sunsetAt is required with a deprecatedAt \(rule concrete-sunset\)/);
    assert.match(error!, /v1 would stay current, with no deprecation headers/);
  });

  it('refuses the typo `sunset`, suggesting sunsetAt, and reports the missing sunset it causes', () => {
    const errors = checkVersionEntry({
      entry: { deprecatedAt: '2026-11-01', sunset: '2027-06-01' },
      where: 'lifecycle.versions.v1',
    });
    assert.equal(errors.length, 2);
    assert.match(
      errors[0]!,
      /^lifecycle\.versions\.v1\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\? A version takes releasedAt, deprecatedAt, sunsetAt/,
    );
    assert.match(errors[1]!, /sunsetAt is required/);
  });
});

describe('checkKnownKeys', () => {
  it('suggests the nearest key by case, prefix or a small edit, and none when nothing is near', () => {
    const near = (key: string) =>
      checkKnownKeys({ object: { [key]: 1 }, known: versionEntryKeys, where: 'v', what: 'a version' })[0]!;
    assert.match(near('migrationURL'), /did you mean migrationUrl\?/);
    assert.match(near('released'), /did you mean releasedAt\?/);
    assert.match(near('deprecatdAt'), /did you mean deprecatedAt\?/);
    assert.doesNotMatch(near('colour'), /did you mean/);
  });
});
