// A migration URL is an absolute http(s) URL or a path: `javascript:`, `data:` and `//host` are
// refused where they are set (config file, management API), so no Link header ever carries one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertFieldErrors } from '../support/assertions.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const admin = { authorization: 'Bearer test-admin-key-0123456789', 'content-type': 'application/json' };
const refused = ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x', '//evil.example/guide'];
const alsoRefused = ['/\\evil.example', 'https://docs.example@evil.example/', 'guide.html', 'ftp://docs.example/'];

const call = adminCaller;

describe('the migration URL rule, through the service', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.stop());

  it('refuses a deprecation whose migrationUrl is not http(s) or a path, and stores nothing', async () => {
    for (const migrationUrl of [...refused, ...alsoRefused]) {
      const res = await call(service)('POST', '/admin/v1/deprecations', {
        version: 'v2',
        method: 'GET',
        path: '/users/{id}',
        migrationUrl,
      });
      const problem = assertFieldErrors(res, '/body/migrationUrl');
      assert.match(problem.detail, /absolute http or https URL, or a path/, migrationUrl);
    }
    const list = JSON.parse((await call(service)('GET', '/admin/v1/deprecations')).body) as {
      data: Array<{ kind: string }>;
    };
    assert.deepEqual(
      list.data.filter((d) => d.kind === 'endpoint'),
      [],
    );
    const v2 = await fetch(`${service.base}/api/v2/users`, { headers: admin });
    assert.equal(v2.headers.get('link'), null, 'no deprecation link on v2');
  });

  it('refuses the same when a version is deprecated, keeping its guide', async () => {
    const before = JSON.parse((await call(service)('GET', '/admin/v1/versions/v1')).body) as { migrationUrl: unknown };
    for (const migrationUrl of refused) {
      const res = await call(service)('PUT', '/admin/v1/versions/v1/deprecation', { noticeMonths: 9, migrationUrl });
      assertFieldErrors(res, '/body/migrationUrl');
    }
    const now = JSON.parse((await call(service)('GET', '/admin/v1/versions/v1')).body) as { migrationUrl: unknown };
    assert.equal(now.migrationUrl, before.migrationUrl);
    const v1 = await fetch(`${service.base}/api/v1/users`, { headers: admin });
    assert.doesNotMatch(String(v1.headers.get('link')), /javascript|data:|\/\/evil/i);
  });

  it('takes an absolute https URL and a path', async () => {
    for (const migrationUrl of ['https://docs.example/v1-to-v2?from=api#top', '/docs/v1-to-v2']) {
      const res = await call(service)('PUT', '/admin/v1/versions/v1/deprecation', { noticeMonths: 9, migrationUrl });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((JSON.parse(res.body) as { migrationUrl: string }).migrationUrl, migrationUrl);
    }
  });
});

describe('the migration URL rule, in the config file', () => {
  it('fails at start naming each bad migrationUrl', async () => {
    const file = {
      versions: {
        v1: {
          releasedAt: '2024-01-01T00:00:00Z',
          deprecatedAt: '2026-01-01T00:00:00Z',
          sunsetAt: '2027-06-01T00:00:00Z',
          migrationUrl: 'javascript:alert(1)',
        },
        v2: { releasedAt: '2025-06-01T00:00:00Z' },
      },
      endpointDeprecations: [
        { version: 'v2', method: 'GET', path: '/users/{id}', sunsetAt: '2027-06-01', migrationUrl: '//evil.example' },
      ],
    };
    await assert.rejects(startTestService({ file }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'INVALID_CONFIG');
      assert.match(error.message, /versions\.v1\.migrationUrl must be a string that is an absolute http or https URL/);
      assert.match(
        error.message,
        /endpointDeprecations\[0\]\.migrationUrl must be a string that is an absolute http or https URL/,
      );
      return true;
    });
  });
});
