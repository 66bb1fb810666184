import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { stateKey, stateOf } from './request-state.ts';

const request = () => ({ versionaryState: null }) as unknown as FastifyRequest;

describe('stateKey', () => {
  it("keeps a typed slot in the request's one state, apart from its members", () => {
    const claim = stateKey<{ key: string }>('claim-test');
    const r = request();
    assert.equal(claim.get(r), undefined);
    // Reading makes no state.
    assert.equal((r as unknown as { versionaryState: unknown }).versionaryState, null);
    claim.set(r, { key: 'k1' });
    assert.deepEqual(claim.get(r), { key: 'k1' });
    assert.deepEqual(stateOf(r), { 'slot:claim-test': { key: 'k1' } });
    claim.set(r, undefined);
    assert.equal(claim.get(r), undefined);
    assert.equal(claim.get(request()), undefined, 'each request has its own');
  });

  it('refuses a second slot of one name', () => {
    stateKey<number>('twice-test');
    assert.throws(() => stateKey<string>('twice-test'), /already has a slot named twice-test/);
  });
});
