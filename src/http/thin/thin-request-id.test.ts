import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRequestId } from './thin-request-id.ts';

// The form `docs/operations.md` promises for a generated id (and `test/ops/probes-metrics.test.ts` checks of Fastify's).
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('nextRequestId', () => {
  it('makes ids in a random UUID’s form, each one new', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const id = nextRequestId();
      if (i % 997 === 0) assert.match(id, uuid);
      ids.add(id);
    }
    assert.equal(ids.size, 100_000);
  });
});
