import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBrownout } from './brownout-schedule.ts';
import { defaultScheduleSteps, parseSpan, scheduleWindows } from './brownout-schedule.ts';
import type { Brownout } from './types.ts';

const hour = 3_600_000;
const global: Brownout = { id: 'g', version: 'v1', startsAt: 10 * hour, endsAt: 11 * hour };

describe('brownouts', () => {
  // Which brownout refuses a call is core's brownoutRule now (src/core/rulebook/brownout-rule.test.ts).
  it('must sit inside the sunset window', () => {
    assert.deepEqual(checkBrownout({ brownout: global, deprecatedAt: 0, sunsetAt: 12 * hour }), []);
    assert.equal(checkBrownout({ brownout: { startsAt: 5, endsAt: 5 }, deprecatedAt: 0, sunsetAt: 10 }).length, 1);
    assert.equal(checkBrownout({ brownout: global, deprecatedAt: 11 * hour, sunsetAt: 10.5 * hour }).length, 2);
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
