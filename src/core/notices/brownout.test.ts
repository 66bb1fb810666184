import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeBrownout, checkBrownout } from './brownout.ts';
import type { Brownout } from './types.ts';

const hour = 3_600_000;
const global: Brownout = { id: 'g', version: 'v1', startsAt: 10 * hour, endsAt: 11 * hour };
const rehearsal: Brownout = {
  id: 'r',
  version: 'v1',
  endpoint: 'GET /users',
  startsAt: 20 * hour,
  endsAt: 21 * hour,
  clientId: 'acme',
};

describe('brownouts', () => {
  it('is active inside its window only, end excluded', () => {
    const at = (now: number) => activeBrownout({ brownouts: [global], version: 'v1', endpoint: 'GET /users', now })?.id;
    assert.equal(at(10 * hour - 1), undefined);
    assert.equal(at(10 * hour), 'g');
    assert.equal(at(11 * hour - 1), 'g');
    assert.equal(at(11 * hour), undefined);
    assert.equal(
      activeBrownout({ brownouts: [global], version: 'v2', endpoint: 'GET /users', now: 10 * hour }),
      undefined,
    );
  });

  it('applies a rehearsal to its own client and endpoint alone', () => {
    const now = 20 * hour + 1;
    assert.equal(
      activeBrownout({ brownouts: [rehearsal], version: 'v1', endpoint: 'GET /users', clientId: 'acme', now })?.id,
      'r',
    );
    assert.equal(
      activeBrownout({ brownouts: [rehearsal], version: 'v1', endpoint: 'GET /users', clientId: 'other', now }),
      undefined,
    );
    assert.equal(
      activeBrownout({ brownouts: [rehearsal], version: 'v1', endpoint: 'POST /users', clientId: 'acme', now }),
      undefined,
    );
  });

  it('must sit inside the sunset window', () => {
    assert.deepEqual(checkBrownout({ brownout: global, deprecatedAt: 0, sunsetAt: 12 * hour }), []);
    assert.equal(checkBrownout({ brownout: { startsAt: 5, endsAt: 5 }, deprecatedAt: 0, sunsetAt: 10 }).length, 1);
    assert.equal(checkBrownout({ brownout: global, deprecatedAt: 11 * hour, sunsetAt: 10.5 * hour }).length, 2);
  });
});
