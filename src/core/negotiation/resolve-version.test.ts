import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isVersionaryError } from '../errors/index.ts';
import { resolveVersion } from './resolve-version.ts';

const supported = ['v1', 'v2'];
const resolve = (pathVersion: number | undefined, accept: string | undefined) =>
  resolveVersion({ ...(pathVersion !== undefined ? { pathVersion } : {}), accept, supported, vendor: 'versionary' });
const code = (expected: string) => (error: unknown) =>
  isVersionaryError(error) &&
  error.code === expected &&
  (error.extensions.supportedVersions as string[]).join() === 'v1,v2';

describe('resolveVersion', () => {
  it('takes the path version', () => {
    assert.deepEqual(resolve(1, undefined), { number: 1, source: 'path' });
    assert.deepEqual(resolve(2, 'application/json'), { number: 2, source: 'path' });
    assert.deepEqual(resolve(2, 'application/vnd.versionary.v2+json'), { number: 2, source: 'path' });
  });

  it('takes the Accept version when the path has none', () => {
    assert.deepEqual(resolve(undefined, 'application/vnd.versionary.v2+json'), { number: 2, source: 'accept' });
    assert.deepEqual(resolve(undefined, 'application/json; version=1'), { number: 1, source: 'accept' });
  });

  it('leaves checking publication to the caller', () => {
    assert.deepEqual(resolve(undefined, 'application/vnd.versionary.v9+json'), { number: 9, source: 'accept' });
  });

  it('is VERSION_MISSING without a version anywhere, naming the supported ones', () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      assert.throws(
        () => resolve(undefined, accept),
        (e) => code('VERSION_MISSING')(e) && /v1, v2/.test((e as Error).message),
      );
    }
  });

  it('is VERSION_MISSING for an unreadable version, even with a path version', () => {
    assert.throws(() => resolve(undefined, 'application/json; version=abc'), code('VERSION_MISSING'));
    assert.throws(() => resolve(1, 'application/json; version=abc'), code('VERSION_MISSING'));
  });

  it('is VERSION_CONFLICT for disagreeing path and Accept, or several Accept versions', () => {
    assert.throws(() => resolve(1, 'application/vnd.versionary.v2+json'), code('VERSION_CONFLICT'));
    assert.throws(
      () => resolve(undefined, 'application/vnd.versionary.v1+json, application/vnd.versionary.v2+json'),
      code('VERSION_CONFLICT'),
    );
  });

  it('is NOT_ACCEPTABLE when no JSON is acceptable, with or without a path version', () => {
    assert.throws(() => resolve(1, 'text/html'), code('NOT_ACCEPTABLE'));
    assert.throws(() => resolve(undefined, 'text/html'), code('NOT_ACCEPTABLE'));
    assert.throws(() => resolve(2, 'application/json;q=0'), code('NOT_ACCEPTABLE'));
  });

  it('ignores a refused version range', () => {
    assert.deepEqual(resolve(2, 'application/vnd.versionary.v1+json;q=0, application/json'), {
      number: 2,
      source: 'path',
    });
  });
});
