import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LifecycleVersion } from './schedule.ts';
import { checkReplacementExists, checkVersionKnown, resolveReplacement } from './replacement-rule.ts';
import { at, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const versions: LifecycleVersion[] = [
  { name: 'v1', releasedAt: at('2024-01-01') },
  {
    name: 'v2',
    releasedAt: at('2025-01-01'),
    schedule: scheduleOf({ version: 'v2', deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' }),
  },
  { name: 'v3', releasedAt: at('2026-01-01') },
  { name: 'v4', releasedAt: at('2027-01-01') },
];

describe('resolveReplacement', () => {
  it('picks the newest newer version that is not deprecated', () => {
    assert.equal(resolveReplacement({ version: 'v1', versions }), 'v4');
    assert.equal(resolveReplacement({ version: 'v4', versions }), undefined);
  });

  it('keeps a named replacement only when it qualifies', () => {
    assert.equal(resolveReplacement({ version: 'v1', versions, replacement: 'v3' }), 'v3');
    assert.equal(resolveReplacement({ version: 'v1', versions, replacement: 'v2' }), undefined);
    assert.equal(resolveReplacement({ version: 'v3', versions, replacement: 'v1' }), undefined);
  });

  it('uses the version’s own replacement when none is passed', () => {
    const own = versions.map((v) => (v.name === 'v1' ? { ...v, replacement: 'v3' } : v));
    assert.equal(resolveReplacement({ version: 'v1', versions: own }), 'v3');
  });
});

describe('checkReplacementExists', () => {
  it('refuses to deprecate the newest version with NO_REPLACEMENT', () => {
    const error = checkReplacementExists({ version: 'v4', versions });
    assert.equal(error?.code, 'NO_REPLACEMENT');
    assert.equal(error?.extensions.rule, 'replacement-exists');
    assert.equal(
      error?.detail,
      'replacement-exists: v4 can be deprecated only once a newer, non-deprecated version exists; there is none.',
    );
  });

  it('says why a named replacement does not qualify', () => {
    const why = (replacement: string) => checkReplacementExists({ version: 'v1', versions, replacement })?.detail;
    assert.match(why('v9') ?? '', /v1 names v9 as its replacement, but v9 is not a published version\.$/);
    assert.match(why('v2') ?? '', /but v2 is itself deprecated\.$/);
    assert.match(
      checkReplacementExists({ version: 'v3', versions, replacement: 'v1' })?.detail ?? '',
      /but v1 is not newer\.$/,
    );
    assert.equal(why('v3'), undefined);
  });
});

describe('checkVersionKnown', () => {
  it('refuses an unpublished version with VERSION_UNKNOWN and lists the published ones', () => {
    const error = checkVersionKnown({ version: 'v9', versions });
    assert.equal(error?.code, 'VERSION_UNKNOWN');
    assert.equal(error?.detail, 'version-known: v9 is not a published version; published: v1, v2, v3, v4.');
    assert.equal(checkVersionKnown({ version: 'v1', versions }), undefined);
  });
});
