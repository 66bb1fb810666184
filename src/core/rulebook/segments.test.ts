import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headersAt } from './segments.ts';
import type { RuleSegment } from './table.ts';

const day = 86_400_000;
const sunset = Date.UTC(2027, 0, 31);

test('a counting segment renders its headers once per day count: the same object all day, the next count the next day', () => {
  const segment: RuleSegment = {
    from: 0,
    outcome: 'allow',
    headers: { deprecation: '@1', warning: '299 - "v1 is removed in {days} days"' },
    daysTo: sunset,
  };
  const morning = headersAt(segment, sunset - 10 * day + 1);
  assert.deepEqual(morning, { deprecation: '@1', warning: '299 - "v1 is removed in 9 days"' });
  assert.equal(headersAt(segment, sunset - 9 * day - 1), morning, 'cached within the day');
  assert.equal(headersAt(segment, sunset - 9 * day), morning, 'the last instant of the count');
  assert.deepEqual(headersAt(segment, sunset - 8 * day - 1), {
    deprecation: '@1',
    warning: '299 - "v1 is removed in 8 days"',
  });
  assert.ok(Object.isFrozen(morning), 'a shared object cannot be changed by one answer for the next');
});

test('a segment that counts nothing hands its own headers, and another segment its own rendering', () => {
  const plain: RuleSegment = { from: 0, outcome: 'allow', headers: { deprecation: '@1' } };
  assert.equal(headersAt(plain, 5), plain.headers);
  const a: RuleSegment = { from: 0, outcome: 'allow', headers: { warning: '{days} left' }, daysTo: 10 * day };
  const b: RuleSegment = { ...a, daysTo: 20 * day };
  assert.deepEqual([headersAt(a, 0).warning, headersAt(b, 0).warning], ['10 left', '20 left']);
});
