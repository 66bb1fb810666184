import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY_MS } from '../lifecycle/index.ts';
import { fitLine } from './burn-down.ts';
import { fillDays, projectBurnDown, rankClients, startOfDay, type DailyCount } from './index.ts';

const now = Date.UTC(2026, 5, 30, 15);
const today = startOfDay(now);
/** A series ending today, oldest first. */
const series = (counts: number[]): DailyCount[] =>
  counts.map((count, i) => ({ day: today - (counts.length - 1 - i) * DAY_MS, count }));

test('days without calls count zero, and a line fits exactly through points on a line', () => {
  assert.deepEqual(
    fillDays({ counts: [{ day: today - DAY_MS + 5, count: 3 }], from: today - 2 * DAY_MS, to: today }).map(
      (d) => d.count,
    ),
    [0, 3, 0],
  );
  assert.deepEqual(fitLine(series([10, 8, 6, 4])), { slopePerDay: -2, intercept: 10 });
  assert.deepEqual(fitLine(series([5])), { slopePerDay: 0, intercept: 5 });
});

test('a falling burn-down projects its zero day and compares it with the sunset', () => {
  // 28 days falling by one client a day from 40: 13 today, zero 13 days from now.
  const daily = series(Array.from({ length: 28 }, (_, i) => 40 - i));
  const onTrack = projectBurnDown({ daily, sunsetAt: today + 20 * DAY_MS, now });
  assert.equal(onTrack.verdict, 'on_track');
  assert.equal(onTrack.projectedZeroAt, today + 13 * DAY_MS);
  assert.equal(onTrack.slopePerDay, -1);
  assert.equal(projectBurnDown({ daily, sunsetAt: today + 10 * DAY_MS, now }).verdict, 'late');
});

test('days before the first caller do not count as a rise', () => {
  const late = projectBurnDown({ daily: series([0, 0, 0, 0, 0, 0, 8, 6, 4]), sunsetAt: today + 30 * DAY_MS, now });
  assert.equal(late.verdict, 'on_track');
  assert.equal(late.projectedZeroAt, today + 2 * DAY_MS);
});

test('a flat or rising burn-down projects nothing; an empty last day is done', () => {
  const flat = projectBurnDown({
    daily: series(Array.from({ length: 28 }, () => 3)),
    sunsetAt: today + 100 * DAY_MS,
    now,
  });
  assert.equal(flat.verdict, 'stalled');
  assert.equal(flat.projectedZeroAt, undefined);
  assert.equal(projectBurnDown({ daily: series([1, 2, 3]), sunsetAt: today + 100 * DAY_MS, now }).verdict, 'stalled');
  assert.equal(projectBurnDown({ daily: series([5, 4, 0]), sunsetAt: today, now }).verdict, 'done');
  assert.equal(projectBurnDown({ daily: [], sunsetAt: today, now }).verdict, 'done');
});

test('a line that already crossed zero while callers remain projects no earlier than tomorrow', () => {
  const steep = projectBurnDown({
    daily: series([...Array.from({ length: 27 }, (_, i) => 100 - 5 * i).map((c) => Math.max(c, 0)), 1]),
    sunsetAt: today + 30 * DAY_MS,
    now,
  });
  assert.equal(steep.verdict, 'on_track');
  assert.ok(steep.projectedZeroAt! >= today + DAY_MS);
});

test('clients are ranked by calls; those whose calls are not falling are at risk', () => {
  const perClient = new Map<string, DailyCount[]>([
    ['key_falling', series([9, 7, 5, 3, 1])],
    ['key_flat', series([2, 2, 2, 2, 2])],
    ['key_rising', series([0, 1, 2, 4, 8])],
    ['key_gone', [{ day: today - 60 * DAY_MS, count: 50 }]],
  ]);
  const ranked = rankClients({ perClient, now });
  assert.deepEqual(
    ranked.map((c) => [c.clientId, c.calls, c.atRisk]),
    [
      ['key_falling', 25, false],
      ['key_rising', 15, true],
      ['key_flat', 10, true],
    ],
  );
  assert.equal(ranked[0]!.lastSeenDay, today);
});
