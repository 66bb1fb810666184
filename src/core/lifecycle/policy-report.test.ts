import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';

describe('toPolicyError', () => {
  const one = createViolation({ rule: PolicyRule.NoticePeriod, message: 'too short', extensions: { givenDays: 9 } });
  const two = createViolation({ rule: PolicyRule.SunsetOrder, code: 'INVALID_SCHEDULE', message: 'backwards' });

  it('returns nothing for no violations and a lone violation as itself', () => {
    assert.equal(toPolicyError([], { subject: 'x' }), undefined);
    assert.equal(toPolicyError([one], { subject: 'x' }), one);
  });

  it('lists several violations, keeping each code, rule and extension', () => {
    const error = toPolicyError([one, two], { subject: 'deprecation of v1' });
    assert.equal(error?.code, 'POLICY_VIOLATION');
    assert.equal(
      error?.detail,
      'deprecation of v1: 2 lifecycle problem(s): notice-period: too short | sunset-order: backwards',
    );
    assert.deepEqual(error?.extensions.violations, [
      { code: 'POLICY_VIOLATION', detail: 'notice-period: too short', rule: 'notice-period', givenDays: 9 },
      { code: 'INVALID_SCHEDULE', detail: 'sunset-order: backwards', rule: 'sunset-order' },
    ]);
  });
});
