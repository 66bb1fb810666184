import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { summarizeUsage } from './usage-summary.ts';
import type { UsageRecord } from './usage-summary.ts';

const records: UsageRecord[] = [
  { version: 'v1', endpoint: 'GET /users', clientId: 'a', at: 30 },
  { version: 'v1', endpoint: 'GET /users', clientId: 'b', at: 10 },
  { version: 'v1', endpoint: 'POST /users', clientId: 'a', at: 20 },
  { version: 'v0', endpoint: 'GET /users', clientId: 'a', at: 5 },
];

describe('summarizeUsage', () => {
  it('counts calls and distinct clients and endpoints per version, sorted by version', () => {
    assert.deepEqual(summarizeUsage({ records }), [
      { version: 'v0', calls: 1, clients: 1, endpoints: 1, firstCallAt: 5, lastCallAt: 5 },
      { version: 'v1', calls: 3, clients: 2, endpoints: 2, firstCallAt: 10, lastCallAt: 30 },
    ]);
  });

  it('keeps calls in [from, until)', () => {
    assert.deepEqual(summarizeUsage({ records, from: 10, until: 30 }), [
      { version: 'v1', calls: 2, clients: 2, endpoints: 2, firstCallAt: 10, lastCallAt: 20 },
    ]);
    assert.deepEqual(summarizeUsage({ records: [] }), []);
  });

  it('never counts more distinct clients or endpoints than calls, and loses no call', () => {
    const record = fc.record({
      version: fc.constantFrom('v1', 'v2', '__proto__'),
      endpoint: fc.constantFrom('GET /a', 'GET /b'),
      clientId: fc.string({ maxLength: 2 }),
      at: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(record), (input) => {
        const summary = summarizeUsage({ records: input });
        assert.equal(
          summary.reduce((sum, s) => sum + s.calls, 0),
          input.length,
        );
        for (const s of summary) {
          assert.ok(s.clients >= 1 && s.clients <= s.calls && s.endpoints <= Math.min(2, s.calls));
          assert.equal(s.clients, new Set(input.filter((r) => r.version === s.version).map((r) => r.clientId)).size);
        }
      }),
    );
  });
});
