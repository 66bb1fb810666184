import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isVersionaryError } from '../errors/index.ts';
import {
  addDays,
  assertIsoInstant,
  formatImfFixdate,
  formatIsoDate,
  formatIsoInstant,
  parseImfFixdate,
  parseIsoInstant,
} from './index.ts';
import { daysFromCivil, isLeapYear, toCivil } from './civil.ts';

const MAX = 8.64e15;
const YEAR_0_MS = -62_167_219_200_000;
const four = fc.integer({ min: YEAR_0_MS, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });

describe('formatIsoInstant', () => {
  const known: Array<[number, string]> = [
    [0, '1970-01-01T00:00:00.000Z'],
    [-1, '1969-12-31T23:59:59.999Z'],
    [1_777_593_600_000, '2026-05-01T00:00:00.000Z'],
    [951_782_400_000, '2000-02-29T00:00:00.000Z'],
    [4_107_542_400_000, '2100-03-01T00:00:00.000Z'],
    [4_107_456_000_000, '2100-02-28T00:00:00.000Z'],
    [1_709_164_800_000 + 86_399_999, '2024-02-29T23:59:59.999Z'],
    [253_402_300_799_999, '9999-12-31T23:59:59.999Z'],
    [253_402_300_800_000, '+010000-01-01T00:00:00.000Z'],
    [YEAR_0_MS, '0000-01-01T00:00:00.000Z'],
    [-62_167_219_200_001, '-000001-12-31T23:59:59.999Z'],
    [MAX, '+275760-09-13T00:00:00.000Z'],
    [-MAX, '-271821-04-20T00:00:00.000Z'],
  ];
  for (const [ms, iso] of known) {
    it(`formats ${ms} as ${iso}`, () => assert.equal(formatIsoInstant(ms), iso));
  }

  it('truncates fractional milliseconds towards zero like Date', () => {
    assert.equal(formatIsoInstant(1.9), '1970-01-01T00:00:00.001Z');
    assert.equal(formatIsoInstant(-0.5), '1970-01-01T00:00:00.000Z');
  });

  it('refuses non-finite and out-of-range values with INVALID_SCHEDULE', () => {
    for (const bad of [Number.NaN, Infinity, MAX + 1, -MAX - 1]) {
      assert.throws(
        () => formatIsoInstant(bad),
        (err) => isVersionaryError(err) && err.code === 'INVALID_SCHEDULE',
      );
    }
  });

  it('agrees with Date#toISOString over the whole Date range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: MAX }), (ms) => {
        assert.equal(formatIsoInstant(ms), new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatImfFixdate', () => {
  it('formats known dates', () => {
    assert.equal(formatImfFixdate(1_777_593_600_000), 'Fri, 01 May 2026 00:00:00 GMT');
    assert.equal(formatImfFixdate(0), 'Thu, 01 Jan 1970 00:00:00 GMT');
    assert.equal(formatImfFixdate(951_782_400_000), 'Tue, 29 Feb 2000 00:00:00 GMT');
    assert.equal(formatImfFixdate(4_107_542_400_000), 'Mon, 01 Mar 2100 00:00:00 GMT');
    assert.equal(formatImfFixdate(-1), 'Wed, 31 Dec 1969 23:59:59 GMT');
    assert.equal(formatImfFixdate(784_111_777_999), 'Sun, 06 Nov 1994 08:49:37 GMT');
  });

  it('refuses years that do not fit four digits', () => {
    assert.throws(() => formatImfFixdate(253_402_300_800_000), /four-digit years/);
    assert.throws(() => formatImfFixdate(-62_167_219_200_001), /four-digit years/);
  });

  it('agrees with Date#toUTCString for four-digit years', () => {
    fc.assert(
      fc.property(four, (ms) => {
        assert.equal(formatImfFixdate(ms), new Date(ms).toUTCString());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseIsoInstant', () => {
  it('parses dates and date-times with Z or offsets', () => {
    assert.equal(parseIsoInstant('2026-05-01'), 1_777_593_600_000);
    assert.equal(parseIsoInstant('2026-05-01T00:00:00Z'), 1_777_593_600_000);
    assert.equal(parseIsoInstant('2026-05-01t00:00z'), 1_777_593_600_000);
    assert.equal(parseIsoInstant('2026-05-01T02:00:00+02:00'), 1_777_593_600_000);
    assert.equal(parseIsoInstant('2026-04-30T19:30:00-04:30'), 1_777_593_600_000);
    assert.equal(parseIsoInstant('2026-05-01T00:00:00.5Z'), 1_777_593_600_500);
    assert.equal(parseIsoInstant('2026-05-01T00:00:00,123456Z'), 1_777_593_600_123);
    assert.equal(parseIsoInstant('2000-02-29'), 951_782_400_000);
    assert.equal(parseIsoInstant('1969-12-31T23:59:59.999Z'), -1);
    assert.equal(parseIsoInstant('0000-01-01'), -62_167_219_200_000);
  });

  it('refuses impossible or ambiguous text', () => {
    for (const bad of [
      '',
      '2026',
      '2026-5-1',
      '2026-13-01',
      '2026-00-10',
      '2026-02-29',
      '2100-02-29',
      '2026-04-31',
      '2026-01-00',
      '2026-05-01T00:00:00',
      '2026-05-01T24:00:00Z',
      '2026-05-01T12:60:00Z',
      '2026-05-01T12:00:60Z',
      '2026-05-01T00:00:00+24:00',
      '2026-05-01T00:00:00+02:60',
      '2026-05-01 00:00:00Z',
      ' 2026-05-01',
      'May 1 2026',
    ]) {
      assert.equal(parseIsoInstant(bad), undefined, bad);
    }
  });

  it('round-trips every formatted instant in four-digit years', () => {
    fc.assert(
      fc.property(four, (ms) => {
        assert.equal(parseIsoInstant(formatIsoInstant(ms)), ms);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with Date.parse on generated offset date-times', () => {
    const text = fc
      .record({
        ms: four,
        sign: fc.constantFrom('+', '-'),
        h: fc.integer({ min: 0, max: 23 }),
        m: fc.integer({ min: 0, max: 59 }),
      })
      .map(
        ({ ms, sign, h, m }) =>
          `${new Date(ms).toISOString().slice(0, -1)}${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
      );
    fc.assert(
      fc.property(text, (value) => {
        assert.equal(parseIsoInstant(value), Date.parse(value));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('calendar helpers', () => {
  it('knows the leap-year rule', () => {
    assert.deepEqual([1900, 2000, 2024, 2025, 2100, 2400].map(isLeapYear), [false, true, true, false, false, true]);
  });

  it('counts days from the epoch', () => {
    assert.equal(daysFromCivil({ year: 1970, month: 1, day: 1 }), 0);
    assert.equal(daysFromCivil({ year: 2000, month: 3, day: 1 }), 11_017);
    assert.equal(daysFromCivil({ year: 0, month: 1, day: 1 }) * 86_400_000, YEAR_0_MS);
  });

  it('gives the weekday, also before the epoch', () => {
    assert.equal(toCivil(0).weekday, 4);
    assert.equal(toCivil(-86_400_000).weekday, 3);
    assert.equal(toCivil(1_777_593_600_000).weekday, 5);
  });

  it('formats a calendar date', () => {
    assert.equal(formatIsoDate(1_777_593_600_000 + 86_399_999), '2026-05-01');
  });
});

// core/time replaced two ISO parsers (one threw, one returned undefined) and two formatters (one
// always wrote milliseconds, one only when non-zero): one grammar and one formatter remain.
describe('assertIsoInstant', () => {
  it('returns what parseIsoInstant returns, ignoring surrounding blanks', () => {
    for (const text of [
      '1970-01-01',
      '2000-02-29T23:59:59Z',
      '2026-07-04T10:20:30.250Z',
      '2024-12-31T23:00:00-01:30',
    ]) {
      assert.equal(assertIsoInstant(` ${text}\n`), parseIsoInstant(text), text);
      assert.equal(assertIsoInstant(text), Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text), text);
    }
  });

  it('throws INVALID_SCHEDULE, naming the text, where parseIsoInstant returns undefined', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'next spring', '2026-1-1', '2026-05-01T00:00:00', '']) {
      assert.equal(parseIsoInstant(bad), undefined, bad);
      assert.throws(
        () => assertIsoInstant(bad),
        (err) => isVersionaryError(err) && err.code === 'INVALID_SCHEDULE' && err.message.includes(`"${bad}"`),
        bad,
      );
    }
  });

  it('adds whole days', () => {
    assert.equal(addDays(0, 180), 180 * 86_400_000);
  });
});

describe('parseImfFixdate', () => {
  it('reads the Sunset header form, weekday optional, case ignored', () => {
    assert.equal(parseImfFixdate('Fri, 01 Jan 2027 00:00:00 GMT'), Date.UTC(2027, 0, 1));
    assert.equal(parseImfFixdate('1 jan 2027 10:20:30 gmt'), Date.UTC(2027, 0, 1, 10, 20, 30));
    for (const bad of ['2027-01-01', 'Fri, 01 Foo 2027 00:00:00 GMT', 'Fri, 01 Jan 2027 24:00:00 GMT', ''])
      assert.equal(parseImfFixdate(bad), undefined, bad);
  });

  it('round-trips formatImfFixdate for four-digit years', () => {
    fc.assert(
      fc.property(four, (ms) => {
        assert.equal(parseImfFixdate(formatImfFixdate(ms)), ms - (((ms % 1000) + 1000) % 1000));
      }),
      { numRuns: 500 },
    );
  });
});
