import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultRateLimitSettings, parseRateLimitSettings } from './settings.ts';

function parse(rateLimit: unknown) {
  const errors: string[] = [];
  const settings = parseRateLimitSettings({ file: rateLimit === undefined ? {} : { rateLimit }, errors });
  return { settings, errors };
}

describe('parseRateLimitSettings', () => {
  test('no rateLimit key: the documented defaults, 100 per 60 s, no role overrides', () => {
    const { settings, errors } = parse(undefined);
    assert.deepEqual(errors, []);
    assert.deepEqual(settings, { enabled: true, max: 100, windowSeconds: 60, roles: {} });
    assert.deepEqual(defaultRateLimitSettings, settings);
  });

  test('reads max, windowSeconds, enabled and role overrides', () => {
    const { settings, errors } = parse({
      max: 50,
      windowSeconds: 10,
      enabled: true,
      roles: { admin: { max: 1000 }, read: { max: 20 } },
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(settings, {
      enabled: true,
      max: 50,
      windowSeconds: 10,
      roles: { admin: { max: 1000 }, read: { max: 20 } },
    });
  });

  test('keys left out keep their defaults', () => {
    assert.deepEqual(parse({ windowSeconds: 1 }).settings, { enabled: true, max: 100, windowSeconds: 1, roles: {} });
    assert.equal(parse({ enabled: false }).settings.enabled, false);
  });

  test('reports every error at once, each naming where it is', () => {
    const { settings, errors } = parse({
      max: 0,
      windowSeconds: 1.5,
      enabled: 'yes',
      burst: 3,
      roles: { admin: { max: -1 }, owner: { max: 5 }, write: 7, read: {} },
    });
    assert.deepEqual(errors, [
      'rateLimit: unknown key "burst" (known: enabled, max, windowSeconds, roles)',
      'rateLimit.enabled must be true or false, not "yes"',
      'rateLimit.max must be an integer from 1 to 1000000000, not 0',
      'rateLimit.windowSeconds must be an integer from 1 to 86400, not 1.5',
      'rateLimit.roles.admin.max must be an integer from 1 to 1000000000, not -1',
      'rateLimit.roles.owner: unknown role "owner" (known: read, write, admin)',
      'rateLimit.roles.write must be an object such as {"max": 1000}, not 7',
      "rateLimit.roles.read.max is required: the role's requests per window",
    ]);
    // Values in error fall back to the defaults, so the caller can still report and stop.
    assert.deepEqual(settings.roles, {});
    assert.equal(settings.max, 100);
  });

  test('rejects a rateLimit that is not an object, roles that are not an object and unknown role keys', () => {
    assert.deepEqual(parse(100).errors, [
      'rateLimit must be an object such as {"max": 100, "windowSeconds": 60}, not 100',
    ]);
    assert.deepEqual(parse({ roles: ['admin'] }).errors, [
      'rateLimit.roles must be an object keyed by role (read, write, admin), not ["admin"]',
    ]);
    assert.deepEqual(parse({ roles: { admin: { max: 5, windowSeconds: 1 } } }).errors, [
      'rateLimit.roles.admin: unknown key "windowSeconds" (known: max)',
    ]);
    assert.deepEqual(parse({ windowSeconds: 86_401, max: '100' }).errors, [
      'rateLimit.max must be an integer from 1 to 1000000000, not "100"',
      'rateLimit.windowSeconds must be an integer from 1 to 86400, not 86401',
    ]);
  });
});
