import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activeBrownout, checkBrownout } from './brownout.ts';
import { defaultScheduleSteps, parseSpan, scheduleWindows } from './brownout-schedule.ts';
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

describe('targeted brownouts', () => {
  const targeted: Brownout = { id: 't', version: 'v1', startsAt: 10 * hour, endsAt: 11 * hour, clients: ['acme'] };
  const at = (clientId?: string) =>
    activeBrownout({
      brownouts: [targeted],
      version: 'v1',
      endpoint: 'GET /users',
      ...(clientId ? { clientId } : {}),
      now: 10 * hour,
    })?.id;

  it('refuses its targets only, and never a call without a client', () => {
    assert.equal(at('acme'), 't');
    assert.equal(at('globex'), undefined);
    assert.equal(at(), undefined);
  });

  it('spares an exempt client', () => {
    const spared = activeBrownout({
      brownouts: [targeted],
      version: 'v1',
      endpoint: 'GET /users',
      clientId: 'acme',
      now: 10 * hour,
      exempt: (_b, clientId) => clientId === 'acme',
    });
    assert.equal(spared, undefined);
  });
});

describe('progressive schedule', () => {
  const day = 24 * hour;
  const sunsetAt = 100 * day;

  it('counts the default steps back from the sunset', () => {
    const windows = scheduleWindows({ sunsetAt, steps: defaultScheduleSteps, now: 0, taken: [] });
    assert.deepEqual(
      windows.map((w) => ('startsAt' in w ? [(sunsetAt - w.startsAt) / day, (w.endsAt - w.startsAt) / hour] : w)),
      [
        [30, 1],
        [14, 4],
        [7, 24],
      ],
    );
  });

  it('names every step in the past, overlapping or malformed', () => {
    const windows = scheduleWindows({
      sunsetAt,
      steps: [
        { before: '30d', duration: '1h' },
        { before: '20d', duration: '1h' },
        { before: '7d', duration: '8d' },
        { before: 'soon', duration: '1x' },
      ],
      now: 75 * day,
      taken: [{ startsAt: sunsetAt - 20 * day, endsAt: sunsetAt - 20 * day + hour }],
    });
    assert.deepEqual(
      windows.map((w) => w.problems.map((p) => p.pointer)),
      [['/before'], [''], ['/duration'], ['/before', '/duration']],
    );
    assert.equal(parseSpan('0d'), undefined);
    assert.equal(parseSpan('2w'), 14 * day);
  });
});
