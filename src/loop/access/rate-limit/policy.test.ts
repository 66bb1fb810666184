import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Role } from '../../../kernel/ports/principal.ts';
import { createPolicyLookup, policyFor, rateLimitFields } from './policy.ts';
import type { RateLimitSettings } from './settings.ts';

const settings: RateLimitSettings = {
  enabled: true,
  max: 100,
  windowSeconds: 60,
  roles: { admin: { max: 1000 }, read: { max: 50 } },
};

test('the policy lookup answers as policyFor does, once per set of roles', () => {
  const policyOf = createPolicyLookup(settings);
  const cases: Array<Set<Role> | undefined> = [
    undefined,
    new Set(),
    new Set(['read']),
    new Set(['read', 'write']),
    new Set(['read', 'admin']),
  ];
  for (const roles of cases)
    assert.deepEqual(policyOf(roles), policyFor({ settings, roles }), JSON.stringify(roles && [...roles]));
  const roles = new Set<Role>(['read', 'admin']);
  assert.equal(policyOf(roles), policyOf(roles));
  assert.equal(policyOf(roles).name, 'admin');
  assert.equal(policyOf(new Set(['read'])).max, 50);
});

test('the RateLimit fields carry the policy, and the remaining count and reset of this request', () => {
  const policy = createPolicyLookup(settings)(undefined);
  assert.deepEqual(rateLimitFields({ policy, remaining: 42, resetSeconds: 17 }), {
    'ratelimit-policy': '"default";q=100;w=60',
    ratelimit: '"default";r=42;t=17',
  });
  assert.deepEqual(rateLimitFields({ policy, remaining: 0, resetSeconds: 1 }), {
    'ratelimit-policy': '"default";q=100;w=60',
    ratelimit: '"default";r=0;t=1',
  });
});
