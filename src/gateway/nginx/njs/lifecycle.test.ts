import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deprecationHeaders } from '../../../core/lifecycle/index.ts';
import { njsAmbiguity, njsHeaders, njsQuote, type NjsData } from './lifecycle.ts';

const day = 86_400_000;
const sunsetAt = Date.UTC(2026, 6, 1);
const deprecatedAt = Date.UTC(2026, 0, 1);

function data(style: string): NjsData {
  return { prefix: '/api', style } as NjsData;
}

describe('the njs lifecycle writes the headers the core writes', () => {
  for (const style of ['iso8601', 'rfc'] as const)
    it(`byte for byte, ${style}, before the Warning, within it, on its last day and after the sunset`, () => {
      for (const now of [sunsetAt - 90 * day, sunsetAt - 29 * day - 1, sunsetAt - 1, sunsetAt + 1]) {
        const core = deprecationHeaders({
          schedule: { version: 'v1', deprecatedAt, sunsetAt },
          clock: { now: () => now },
          style,
          migrationUrl: '/api/versions/v1/migration-guide',
          sunsetUrl: '/api/versions',
          successorUrl: '/api/v2/openapi.json',
          replacement: 'v2',
        }).headers;
        const njs = njsHeaders(
          data(style),
          {
            deprecatedAt,
            sunsetAt,
            removed: false,
            migrationUrl: '/api/versions/v1/migration-guide',
            subject: 'API version v1',
            replacement: 'v2',
          },
          now,
          '/api/v2/openapi.json',
          '',
        );
        // The core lists the successor before the sunset link; nginx writes them in the same order.
        assert.deepEqual(njs, core, new Date(now).toISOString());
      }
    });

  it('quotes header text as the core does', () => {
    assert.equal(njsQuote('a "b" \\ é'), '"a \\"b\\" \\\\ ?"');
  });

  it('refuses the ambiguous targets the gateway refuses', () => {
    assert.equal(njsAmbiguity('/api/v1/users?x=..'), '');
    assert.equal(njsAmbiguity('/api/v1/../v2'), 'a "." or ".." segment (plain or percent-encoded)');
    assert.equal(njsAmbiguity('/api/v1/%2E%2e/v2'), 'a "." or ".." segment (plain or percent-encoded)');
    assert.equal(njsAmbiguity('/api/v1/a%2fb'), 'an encoded "/" or "\\" (%2F, %5C)');
    assert.equal(njsAmbiguity('/api/v1/a%zz'), 'a "%" that is not followed by two hexadecimal digits');
    assert.equal(njsAmbiguity('/api//v1'), 'an empty segment ("//")');
    assert.equal(njsAmbiguity('http://h/api/v1;a'), 'a ";" (a matrix parameter)');
  });
});
