import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const publicUrl = 'https://api.example.test';
const admin = { authorization: 'Bearer test-admin-key-0123456789' };

/** Every link a text carries: `href`/`src` attributes, `Link` header targets, absolute URLs and JSON `…url` members. */
function linksIn(text: string): string[] {
  const found = [
    ...[...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<([^<>\s]+)>\s*;\s*rel=/g)].map((m) => m[1]!),
    ...[...text.matchAll(/https?:\/\/[^\s"'<>()\]]+/g)].map((m) => m[0]),
    ...[...text.matchAll(/"[A-Za-z_]*(?:url|Url|URL)"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!),
  ];
  return found.map((link) => link.replace(/&amp;/g, '&').replace(/[.,;]+$/, ''));
}

// Links must lead somewhere: every link a deprecation notice, a deprecation header, a portal page
// or a changelog feed carries, followed, answers 200. The reference service runs with a version
// deprecated (v1, replaced by v2) and a field deprecated within v2, which stays.
describe('every link of notices, headers, pages and feeds answers 200 (the service as it starts)', () => {
  let smtp: SmtpCatcher;
  let service: StartedService;
  const sources = new Map<string, string[]>();
  const collect = (source: string, text: string) => sources.set(source, linksIn(text));

  before(async () => {
    smtp = await startSmtpCatcher();
    const now = Date.now();
    service = await startTestService({
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        publicUrl,
        notices: { intervalSeconds: 0 },
        versions: {
          v1: { deprecatedAt: iso(now - 30 * day), sunsetAt: iso(now + 200 * day), replacement: 'v2' },
        },
        fieldDeprecations: [
          {
            version: 'v2',
            schema: ['User', 'UserInput', 'UserPatch'],
            field: 'nickname',
            deprecatedAt: iso(now - 10 * day),
            sunsetAt: iso(now + 200 * day),
            replacement: 'displayName',
          },
        ],
      },
      env: {
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'Versionary <notices@versionary.test>',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      },
    });
    const post = (url: string, body: unknown, headers: Record<string, string> = admin) =>
      fetch(`${service.base}${url}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const client = (await (await post('/admin/v1/clients', { name: 'Acme', contacts: ['dev@acme.test'] })).json()) as {
      id: string;
    };
    const key = await post('/admin/v1/api-keys', { name: 'acme', roles: ['read', 'write'], clientId: client.id });
    assert.equal(key.status, 201);
    const auth = { authorization: `Bearer ${((await key.json()) as { key: string }).key}` };
    // The headers of a deprecated version's call and of a call that sends the deprecated field.
    const v1 = await fetch(`${service.base}/api/v1/users`, { headers: auth });
    assert.equal(v1.status, 200);
    collect('Link of GET /api/v1/users', v1.headers.get('link') ?? '');
    const field = await post('/api/v2/users', { name: 'Ada', nickname: 'ada' }, auth);
    assert.equal(field.status, 201, await field.clone().text());
    assert.ok(field.headers.get('link'), 'the field deprecation links its guide');
    collect('Link of POST /api/v2/users with nickname', field.headers.get('link') ?? '');
    // The notices those calls earn, mailed.
    const run = await post('/admin/v1/notices/run', {});
    assert.equal(run.status, 200, await run.clone().text());
    assert.ok(smtp.messages.length >= 2, `a notice of the version and one of the field: ${smtp.messages.length}`);
    for (const [i, mail] of smtp.messages.entries())
      collect(`mail ${i} (${mail.subject})`, `${mail.text ?? ''}\n${typeof mail.html === 'string' ? mail.html : ''}`);
    // The portal's pages and the changelog's feeds.
    for (const path of ['/docs', '/docs/v1', '/docs/v2', '/docs/changelog', '/changelog.atom', '/changelog.json']) {
      const res = await fetch(`${service.base}${path}`);
      assert.equal(res.status, 200, path);
      collect(path, await res.text());
    }
  });
  after(async () => {
    await service?.stop();
    await smtp?.close();
  });

  it('finds the links it should: the guides of the version and of the field', () => {
    const all = [...sources.values()].flat();
    assert.ok(
      all.some((link) => link.includes('/api/versions/v1/migration-guide')),
      'the version guide',
    );
    const field = sources.get('Link of POST /api/v2/users with nickname')!;
    assert.ok(
      field.some((link) => link.includes('/api/versions/v2/migration-guide')),
      field.join(' '),
    );
  });

  it("answers the field's guide: the version's deprecated fields, with what to send instead", async () => {
    const res = await fetch(`${service.base}/api/versions/v2/migration-guide`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(res.status, 200);
    const guide = (await res.json()) as { title: string; from: string; to: string; deprecated?: unknown[] };
    assert.deepEqual([guide.title, guide.from, guide.to], ['Deprecated fields and parameters of v2', 'v2', 'v2']);
    assert.match(JSON.stringify(guide.deprecated), /nickname/);
    assert.match(JSON.stringify(guide.deprecated), /displayName/);
  });

  it('follows each link of our own origin and gets a 200', async () => {
    const broken: string[] = [];
    const followed = new Set<string>();
    for (const [source, links] of sources) {
      for (const link of links) {
        const local = link.startsWith(publicUrl)
          ? link.slice(publicUrl.length) || '/'
          : link.startsWith(service.base)
            ? link.slice(service.base.length) || '/'
            : link.startsWith('/') && !link.startsWith('//')
              ? link
              : undefined;
        // Other sites (the spec, a mail's external guide) are not this service's to answer.
        if (local === undefined || followed.has(local)) continue;
        followed.add(local);
        const res = await fetch(`${service.base}${local}`, { headers: { accept: 'text/html, application/json' } });
        await res.arrayBuffer();
        if (res.status !== 200) broken.push(`${res.status} ${local} (from ${source})`);
      }
    }
    assert.ok(followed.size > 10, `followed ${followed.size} links`);
    assert.deepEqual(broken, []);
  });
});
