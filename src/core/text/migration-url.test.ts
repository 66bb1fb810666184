import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMigrationUrl, migrationUrlPattern, migrationUrlProblem } from './migration-url.ts';

const accepted = [
  'https://docs.example/v1-to-v2',
  'HTTP://docs.example:8080/guide?from=v1#top',
  'https://[2001:db8::1]/guide',
  '/docs/v1-to-v2',
  '/',
];
const refused = [
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  '//evil.example/guide',
  '/\\evil.example',
  'https://docs.example@evil.example/',
  'https://docs.example/a b',
  'https://docs.example/a>; rel="x"',
  'https://',
  'https://docs.example:99999/',
  'guide.html',
  'mailto:docs@example.com',
  '',
  `/${'a'.repeat(2000)}`,
];

describe('isMigrationUrl', () => {
  it('takes absolute http(s) URLs and paths, and the schema pattern agrees', () => {
    const pattern = new RegExp(migrationUrlPattern, 'u');
    for (const url of accepted) {
      assert.equal(isMigrationUrl(url), true, url);
      assert.equal(pattern.test(url), true, url);
    }
  });

  it('refuses other schemes, protocol-relative URLs, user info and what breaks a Link header', () => {
    for (const url of refused) assert.equal(isMigrationUrl(url), false, url);
  });

  it('tells why, naming the field', () => {
    assert.equal(migrationUrlProblem('/docs', 'migrationUrl'), undefined);
    assert.match(
      migrationUrlProblem('javascript:alert(1)', 'versions.v1.migrationUrl') ?? '',
      /^versions\.v1\.migrationUrl must be an absolute http or https URL, or a path .*"javascript:alert\(1\)"/,
    );
  });
});
