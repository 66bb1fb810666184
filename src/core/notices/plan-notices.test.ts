import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createFixedClock } from '../clock/index.ts';
import { DAY_MS } from '../lifecycle/index.ts';
import { noticeKey, subjectId } from './notice-key.ts';
import { planNotices } from './plan-notices.ts';
import type { Brownout, ClientUsage, DueNotice, NoticeSubject, RecordedNotice } from './types.ts';

const day = (n: number) => Date.UTC(2026, 0, 1) + n * DAY_MS;
const v1: NoticeSubject = { version: 'v1', deprecatedAt: day(0), sunsetAt: day(180), removed: false };

/** Run one pass a day from `from` to `to`, feeding each pass what the earlier ones planned. */
function simulate(options: {
  subjects: NoticeSubject[];
  brownouts?: Brownout[];
  usageOn: (now: number) => ClientUsage[];
  from: number;
  to: number;
  recorded?: RecordedNotice[];
}) {
  const clock = createFixedClock(day(options.from));
  const recorded = options.recorded ?? [];
  const sent: Array<DueNotice & { day: number }> = [];
  for (let d = options.from; d <= options.to; d++) {
    clock.set(day(d));
    const due = planNotices({
      subjects: options.subjects,
      brownouts: options.brownouts ?? [],
      usage: options.usageOn(day(d)),
      recorded,
      clock,
    });
    for (const n of due) {
      recorded.push(n);
      sent.push({ ...n, day: d });
    }
  }
  return sent;
}

const calling =
  (clientId: string, endpoint = 'GET /users', from = 0) =>
  (now: number): ClientUsage[] =>
    now >= day(from) ? [{ clientId, version: 'v1', endpoint, calls: 5, firstSeen: day(from), lastSeen: now }] : [];

const brief = (sent: Array<DueNotice & { day: number }>) =>
  sent.map((n) => `${n.day} ${n.clientId} ${n.kind}${n.step ? ` ${n.step}` : ''}`);

describe('planNotices', () => {
  it('ignores the notices of decisions on extended access: the schedule runs as if they were not recorded', () => {
    const decided = (kind: 'granted' | 'declined', step: string): RecordedNotice => ({
      clientId: 'acme',
      subject: 'v1',
      kind,
      step,
      sunsetAt: day(180),
      plannedAt: day(-1),
    });
    const plain = simulate({ subjects: [v1], usageOn: calling('acme'), from: 0, to: 200 });
    const told = simulate({
      subjects: [v1],
      usageOn: calling('acme'),
      from: 0,
      to: 200,
      recorded: [decided('declined', 'exr_1'), decided('granted', 'exr_2')],
    });
    assert.deepEqual(brief(told), brief(plain));
    assert.equal(brief(told)[0], '0 acme deprecated');
  });

  it('runs a whole lifecycle: deprecated, reminders at 90/30/7/1, a brownout, removal; only the caller hears', () => {
    const brownout: Brownout = { id: 'b1', version: 'v1', startsAt: day(160), endsAt: day(160) + 3_600_000 };
    const sent = simulate({ subjects: [v1], brownouts: [brownout], usageOn: calling('acme'), from: 0, to: 200 });
    assert.deepEqual(brief(sent), [
      '0 acme deprecated',
      '90 acme reminder 90d',
      '150 acme reminder 30d',
      '153 acme brownout b1',
      '173 acme reminder 7d',
      '179 acme reminder 1d',
      '181 acme removed',
    ]);
    assert.equal(sent.find((n) => n.kind === 'reminder' && n.step === '30d')?.daysLeft, 30);
  });

  it('announces an endpoint brownout of a deprecated version to the callers of that endpoint only', () => {
    const brownout: Brownout = {
      id: 'e1',
      version: 'v1',
      endpoint: 'GET /users/{id}',
      startsAt: day(100),
      endsAt: day(100) + 3_600_000,
    };
    const usageOn = (now: number) => [
      ...calling('one-reader', 'GET /users/{id}')(now),
      ...calling('lister', 'GET /users')(now),
    ];
    const sent = simulate({ subjects: [v1], brownouts: [brownout], usageOn, from: 0, to: 100 });
    assert.deepEqual(
      brief(sent).filter((line) => line.includes('brownout')),
      ['93 one-reader brownout e1'],
    );
    const rehearsal: Brownout = { ...brownout, id: 'r1', clientId: 'one-reader' };
    assert.deepEqual(
      brief(simulate({ subjects: [v1], brownouts: [rehearsal], usageOn, from: 0, to: 100 })).filter((l) =>
        l.includes('brownout'),
      ),
      [],
      'rehearsals are not announced',
    );
  });

  it('announces a targeted brownout to its targets alone', () => {
    const brownout: Brownout = {
      id: 't1',
      version: 'v1',
      startsAt: day(100),
      endsAt: day(100) + 3_600_000,
      clients: ['acme'],
    };
    const usageOn = (now: number) => [...calling('acme')(now), ...calling('globex')(now)];
    const sent = simulate({ subjects: [v1], brownouts: [brownout], usageOn, from: 0, to: 100 });
    assert.deepEqual(
      brief(sent).filter((line) => line.includes('brownout')),
      ['93 acme brownout t1'],
    );
  });

  it('dates a client with extended access by its own date, and spares it the brownouts', () => {
    const brownout: Brownout = { id: 'b1', version: 'v1', startsAt: day(160), endsAt: day(160) + 3_600_000 };
    const clock = createFixedClock(day(0));
    const usage = (now: number) => [...calling('acme')(now), ...calling('globex')(now)];
    const recorded: RecordedNotice[] = [];
    const sent: Array<DueNotice & { day: number }> = [];
    for (let d = 0; d <= 200; d++) {
      clock.set(day(d));
      const due = planNotices({
        subjects: [{ ...v1, removed: d > 180 }],
        brownouts: [brownout],
        usage: usage(day(d)),
        recorded,
        clock,
        extensionOf: (clientId) => (clientId === 'acme' ? day(270) : undefined),
      });
      recorded.push(...due);
      sent.push(...due.map((n) => ({ ...n, day: d })));
    }
    const acme = sent.filter((n) => n.clientId === 'acme');
    assert.deepEqual(brief(acme), ['0 acme deprecated', '180 acme reminder 90d'], 'its own reminders, no brownout');
    assert.ok(acme.every((n) => n.sunsetAt === day(270)));
    assert.equal(acme[0]?.daysLeft, 270);
    assert.ok(brief(sent).includes('153 globex brownout b1'));
    assert.ok(brief(sent).includes('181 globex removed'));
  });

  it('tells a late joiner it is deprecated, then reminds it from the next reminder day only', () => {
    const sent = simulate({ subjects: [v1], usageOn: calling('late', 'GET /users', 100), from: 0, to: 181 });
    assert.deepEqual(brief(sent), [
      '100 late deprecated',
      '150 late reminder 30d',
      '173 late reminder 7d',
      '179 late reminder 1d',
      '181 late removed',
    ]);
  });

  it('collapses overdue reminders into the latest one', () => {
    const clock = createFixedClock(day(176));
    const told: RecordedNotice[] = [
      { clientId: 'acme', subject: 'v1', kind: 'deprecated', step: '', sunsetAt: v1.sunsetAt, plannedAt: day(0) },
    ];
    const due = planNotices({ subjects: [v1], brownouts: [], usage: calling('acme')(day(176)), recorded: told, clock });
    assert.deepEqual(
      due.map((n) => `${n.kind} ${n.step}`),
      ['reminder 7d'],
    );
  });

  it('clears a client silent for 14 days once, and sends it nothing more until it calls again (then it is reminded at once)', () => {
    const usageOn = (now: number): ClientUsage[] => [
      {
        clientId: 'acme',
        version: 'v1',
        endpoint: 'GET /users',
        calls: 3,
        firstSeen: day(0),
        lastSeen: Math.min(now, day(40)),
      },
    ];
    const sent = simulate({ subjects: [v1], usageOn, from: 0, to: 200 });
    assert.deepEqual(brief(sent), ['0 acme deprecated', '54 acme cleared']);
    const back = (now: number): ClientUsage[] => [
      {
        clientId: 'acme',
        version: 'v1',
        endpoint: 'GET /users',
        calls: 3,
        firstSeen: day(0),
        lastSeen: now >= day(120) ? now : Math.min(now, day(40)),
      },
    ];
    assert.deepEqual(brief(simulate({ subjects: [v1], usageOn: back, from: 0, to: 160 })), [
      '0 acme deprecated',
      '54 acme cleared',
      '120 acme reminder 90d',
      '150 acme reminder 30d',
    ]);
  });

  it('makes new reminders due when the sunset moves, earlier or later', () => {
    const recorded: RecordedNotice[] = [];
    simulate({ subjects: [v1], usageOn: calling('acme'), from: 0, to: 100, recorded });
    const later = { ...v1, sunsetAt: day(300) };
    const afterMove = simulate({ subjects: [later], usageOn: calling('acme'), from: 101, to: 215, recorded });
    assert.deepEqual(brief(afterMove), ['210 acme reminder 90d']);
    const earlier = { ...v1, sunsetAt: day(120) };
    assert.deepEqual(
      brief(simulate({ subjects: [earlier], usageOn: calling('acme'), from: 216, to: 216, recorded: [...recorded] })),
      ['216 acme removed'],
    );
    const sooner = { ...v1, sunsetAt: day(230) };
    assert.deepEqual(
      brief(simulate({ subjects: [sooner], usageOn: calling('acme'), from: 216, to: 216, recorded: [...recorded] })),
      ['216 acme reminder 30d'],
    );
  });

  it('targets an endpoint deprecation at the callers of that endpoint only', () => {
    const endpoint: NoticeSubject = { ...v1, endpoint: 'GET /users/{id}/posts' };
    const usage = [
      ...calling('posts-reader', 'GET /users/{id}/posts')(day(1)),
      ...calling('lister', 'GET /users')(day(1)),
    ];
    const due = planNotices({
      subjects: [endpoint],
      brownouts: [],
      usage,
      recorded: [],
      clock: createFixedClock(day(1)),
    });
    assert.deepEqual(
      due.map((n) => [n.clientId, n.subject]),
      [['posts-reader', 'v1 GET /users/{id}/posts']],
    );
  });

  it('ignores calls older than the lookback window', () => {
    const usage: ClientUsage[] = [
      { clientId: 'old', version: 'v1', endpoint: 'GET /users', calls: 9, firstSeen: day(0), lastSeen: day(0) },
    ];
    assert.equal(
      planNotices({ subjects: [v1], brownouts: [], usage, recorded: [], clock: createFixedClock(day(91)) }).length,
      0,
    );
    assert.equal(
      planNotices({
        subjects: [v1],
        brownouts: [],
        usage,
        recorded: [],
        clock: createFixedClock(day(91)),
        settings: { lookbackDays: 120 },
      }).length,
      1,
    );
  });

  it('never plans a notice twice and never for a client that did not call the subject (property)', () => {
    const clientIds = ['a', 'b', 'c'];
    const endpoints = ['GET /users', 'POST /users', 'GET /users/{id}'];
    const call = fc.record({
      clientId: fc.constantFrom(...clientIds),
      endpoint: fc.constantFrom(...endpoints),
      day: fc.integer({ min: 0, max: 220 }),
    });
    const subject = fc.record({
      endpoint: fc.option(fc.constantFrom(...endpoints), { nil: undefined }),
      sunset: fc.integer({ min: 1, max: 200 }),
      moved: fc.option(fc.integer({ min: 1, max: 260 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(call, { maxLength: 30 }),
        fc.array(subject, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 9 }),
        (calls, specs, step) => {
          const recorded: RecordedNotice[] = [];
          const clock = createFixedClock(day(0));
          for (let d = 0; d <= 260; d += step) {
            clock.set(day(d));
            const subjects = specs.map((s) => ({
              version: 'v1',
              ...(s.endpoint ? { endpoint: s.endpoint } : {}),
              deprecatedAt: day(0),
              sunsetAt: day(s.moved !== undefined && d > 100 ? s.moved : s.sunset),
              removed: false,
            }));
            const usage = usageUntil(calls, d);
            const due = planNotices({ subjects, brownouts: [], usage, recorded, clock });
            for (const n of due) {
              const subjectOf = subjects.find((s) => subjectId(s) === n.subject)!;
              assert.ok(
                calls.some(
                  (c) =>
                    c.clientId === n.clientId &&
                    c.day <= d &&
                    (!subjectOf.endpoint || c.endpoint === subjectOf.endpoint),
                ),
                `${n.clientId} never called ${n.subject}`,
              );
              recorded.push(n);
            }
          }
          const keys = recorded.map(noticeKey);
          assert.equal(new Set(keys).size, keys.length, 'a notice was planned twice');
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Usage rows as the store would summarise them at day `d`. */
function usageUntil(calls: Array<{ clientId: string; endpoint: string; day: number }>, d: number): ClientUsage[] {
  const rows = new Map<string, ClientUsage>();
  for (const c of calls.filter((x) => x.day <= d)) {
    const key = `${c.clientId} ${c.endpoint}`;
    const row = rows.get(key) ?? {
      clientId: c.clientId,
      version: 'v1',
      endpoint: c.endpoint,
      calls: 0,
      firstSeen: day(c.day),
      lastSeen: day(c.day),
    };
    row.calls++;
    row.firstSeen = Math.min(row.firstSeen, day(c.day));
    row.lastSeen = Math.max(row.lastSeen, day(c.day));
    rows.set(key, row);
  }
  return [...rows.values()];
}
