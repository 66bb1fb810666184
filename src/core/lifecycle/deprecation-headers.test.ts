import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deprecationHeaders, type DeprecationHeadersOptions, quoteHeaderText } from './deprecation-headers.ts';
import { at, clockAt, days, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });
const sunsetAt = at('2026-07-01');
const urls = { migrationUrl: 'https://example.com/migrate/v1', successorUrl: 'https://api.example.com/api/v2' };
const headersAt = (ms: number, extra: Partial<DeprecationHeadersOptions> = {}) =>
  deprecationHeaders({ schedule, clock: clockAt(ms), ...urls, replacement: 'v2', ...extra });

describe('deprecationHeaders, iso style', () => {
  it('sends nothing for a current version', () => {
    assert.deepEqual(deprecationHeaders({ schedule: undefined, clock: clockAt(0) }), {
      headers: {},
      changesAt: undefined,
    });
  });

  it('sends Deprecation, Sunset and Link as ISO 8601, and no Warning with 30 days or more left', () => {
    const { headers, changesAt } = headersAt(at('2026-02-01'));
    assert.deepEqual(headers, {
      Deprecation: '2026-01-01T00:00:00.000Z',
      Sunset: '2026-07-01T00:00:00.000Z',
      Link: '<https://example.com/migrate/v1>; rel="deprecation", <https://api.example.com/api/v2>; rel="successor-version"',
    });
    assert.equal(changesAt, sunsetAt - days(30) + 1);
  });

  it('adds the Warning only when fewer than 30 days remain', () => {
    assert.equal(headersAt(sunsetAt - days(30) - 1).headers.Warning, undefined);
    assert.equal(headersAt(sunsetAt - days(30)).headers.Warning, undefined);
    assert.equal(
      headersAt(sunsetAt - days(30) + 1).headers.Warning,
      '299 - "API version v1 is deprecated and will be removed in 29 days, at 2026-07-01T00:00:00.000Z; ' +
        'please migrate to v2 (https://example.com/migrate/v1)."',
    );
  });

  it('counts whole days left and changes the count every 24 hours', () => {
    const warning = (ms: number) => headersAt(ms).headers.Warning ?? '';
    assert.match(warning(sunsetAt - days(2)), /removed in 2 days,/);
    assert.match(warning(sunsetAt - days(2) + 1), /removed in 1 day,/);
    assert.match(warning(sunsetAt - days(1)), /removed in 1 day,/);
    assert.match(warning(sunsetAt - days(1) + 1), /removed in less than 1 day,/);
    assert.match(warning(sunsetAt), /removed in less than 1 day,/);
    assert.equal(headersAt(sunsetAt - days(2)).changesAt, sunsetAt - days(2) + 1);
    assert.equal(headersAt(sunsetAt).changesAt, sunsetAt + 1);
  });

  it('drops the Warning once removed, and then never changes with time', () => {
    const after = headersAt(sunsetAt + 1);
    assert.equal(after.headers.Warning, undefined);
    assert.equal(after.headers.Sunset, '2026-07-01T00:00:00.000Z');
    assert.equal(after.changesAt, undefined);
    const flagged = headersAt(at('2026-02-01'), { schedule: { ...schedule, removed: true } });
    assert.equal(flagged.changesAt, undefined);
  });

  it('falls back to the current time without a deprecation date, and says it changes next millisecond', () => {
    const now = at('2026-02-01T10:00:00.250Z');
    const endpoint = { version: 'v1', sunsetAt };
    const iso = deprecationHeaders({ schedule: endpoint, clock: clockAt(now), subject: 'GET /api/v1/users' });
    assert.equal(iso.headers.Deprecation, '2026-02-01T10:00:00.250Z');
    assert.equal(iso.headers.Link, undefined);
    assert.equal(iso.changesAt, now + 1);
    const rfc = deprecationHeaders({ schedule: endpoint, clock: clockAt(now), style: 'rfc' });
    assert.equal(rfc.headers.Deprecation, `@${Math.floor(now / 1000)}`);
    assert.equal(rfc.changesAt, at('2026-02-01T10:00:01Z'));
  });

  it('names the endpoint and a generic target in the Warning when asked', () => {
    const { headers } = deprecationHeaders({
      schedule: { version: 'v1', deprecatedAt: at('2026-01-01'), sunsetAt },
      clock: clockAt(sunsetAt - days(3)),
      subject: 'GET /api/v1/users',
    });
    assert.equal(
      headers.Warning,
      '299 - "GET /api/v1/users is deprecated and will be removed in 3 days, at 2026-07-01T00:00:00.000Z; please migrate to a supported version."',
    );
  });
});

describe('deprecationHeaders, rfc style', () => {
  it('uses @epoch-seconds, IMF-fixdate and a sunset link', () => {
    const { headers } = headersAt(sunsetAt - days(10), { style: 'rfc' });
    assert.equal(headers.Deprecation, '@1767225600');
    assert.equal(headers.Sunset, 'Wed, 01 Jul 2026 00:00:00 GMT');
    assert.equal(
      headers.Link,
      '<https://example.com/migrate/v1>; rel="deprecation", <https://api.example.com/api/v2>; rel="successor-version", ' +
        '<https://example.com/migrate/v1>; rel="sunset"',
    );
    assert.match(headers.Warning ?? '', /^299 - "API version v1 is deprecated and will be removed in 10 days/);
  });

  it('links a separate sunset document when given, and floors sub-second deprecation times', () => {
    const { headers } = headersAt(at('2026-02-01'), {
      style: 'rfc',
      sunsetUrl: 'https://example.com/lifecycle',
      schedule: { ...schedule, deprecatedAt: schedule.deprecatedAt + 999 },
    });
    assert.match(headers.Link ?? '', /<https:\/\/example\.com\/lifecycle>; rel="sunset"$/);
    assert.equal(headers.Deprecation, '@1767225600');
  });
});

describe('header safety', () => {
  it('escapes quoted text and refuses a URL that could break the Link header', () => {
    assert.equal(quoteHeaderText('a "b" \\ c\r\nd'), '"a \\"b\\" \\\\ c??d"');
    assert.throws(
      () => headersAt(0, { migrationUrl: 'https://x/a>; rel="evil"' }),
      /migrationUrl cannot appear in a Link header/,
    );
    assert.throws(
      () => headersAt(0, { successorUrl: 'https://x/a b' }),
      (e: { code?: string }) => e.code === 'INVALID_CONFIG',
    );
  });
});

describe('changesAt', () => {
  it('is exactly the first instant at which the headers differ', () => {
    const arbitrary = fc.record({
      length: fc.integer({ min: 0, max: days(400) }),
      offset: fc.integer({ min: -days(10), max: days(410) }),
      style: fc.constantFrom('iso8601' as const, 'iso' as const, 'rfc' as const),
    });
    fc.assert(
      fc.property(arbitrary, ({ length, offset, style }) => {
        const s = { ...schedule, sunsetAt: schedule.deprecatedAt + length };
        const now = schedule.deprecatedAt + offset;
        const here = headersAt(now, { schedule: s, style });
        if (here.changesAt === undefined) {
          assert.deepEqual(headersAt(now + days(3650), { schedule: s, style }).headers, here.headers);
          return;
        }
        assert.ok(here.changesAt > now);
        assert.deepEqual(headersAt(here.changesAt - 1, { schedule: s, style }).headers, here.headers);
        assert.notDeepEqual(headersAt(here.changesAt, { schedule: s, style }).headers, here.headers);
      }),
      { numRuns: 500 },
    );
  });
});
