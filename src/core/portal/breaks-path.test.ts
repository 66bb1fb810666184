import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breaksPath } from './breaks-path.ts';

test('breaksPath fills in the versions, and the client only when named, encoded', () => {
  assert.equal(breaksPath({ from: 'v1', to: 'v2' }), '/portal/breaks?from=v1&to=v2');
  assert.equal(
    breaksPath({ from: '2025-01-01', to: 'v2', client: 'cl_a&b' }),
    '/portal/breaks?from=2025-01-01&to=v2&client=cl_a%26b',
  );
});
