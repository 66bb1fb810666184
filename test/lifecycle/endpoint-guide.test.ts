// An endpoint deprecated through the management API, as the README does it, in a version that
// stays and has no replacement (v2): every link to its guide leads to a guide that lists it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const guideUrl = '/api/versions/v2/migration-guide';

describe('the migration guide of an endpoint deprecated in a version without a replacement', () => {
  let service: StartedService;
  let auth: Record<string, string>;
  let sunsetAt: string;
  before(async () => {
    service = await startTestService();
    const admin = adminCaller(service);
    const created = await admin('POST', '/admin/v1/deprecations', {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}/posts',
      noticeMonths: 6,
    });
    assert.equal(created.statusCode, 201, created.body);
    sunsetAt = (JSON.parse(created.body) as { sunsetAt: string }).sunsetAt;
    const key = await admin('POST', '/admin/v1/api-keys', { name: 'reader', roles: ['read', 'write'] });
    assert.equal(key.statusCode, 201, key.body);
    auth = { authorization: `Bearer ${(JSON.parse(key.body) as { key: string }).key}` };
  });
  after(() => service.stop());

  const follow = async (link: string) => {
    const res = await fetch(new URL(link, service.base), { headers: { accept: 'application/json' } });
    assert.equal(res.status, 200, `${link}: ${await res.clone().text()}`);
    return (await res.json()) as {
      title: string;
      deprecatedEndpoints?: Array<{ endpoint: string; oldBehaviour: string; newBehaviour: string; rule: string }>;
      timeline: { sunsetAt: string };
    };
  };

  it("the response's Link rel=deprecation, the manifest's guide and the document's description answer 200", async () => {
    const user = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    assert.equal(user.status, 201, await user.clone().text());
    const { id } = (await user.json()) as { id: string };
    const posts = await fetch(`${service.base}/api/v2/users/${id}/posts`, { headers: auth });
    assert.equal(posts.status, 200);
    const link = /^<([^>]+)>; rel="deprecation"/.exec(posts.headers.get('link') ?? '')?.[1];
    assert.equal(link, guideUrl, posts.headers.get('link') ?? '');
    await follow(link);

    const manifest = (await (await fetch(`${service.base}/api/deprecations`)).json()) as {
      deprecations: Array<{ kind: string; name: string; guide: string | null }>;
    };
    const entry = manifest.deprecations.find((d) => d.kind === 'endpoint' && d.name === 'GET /users/{id}/posts');
    assert.ok(entry, 'the endpoint is in the manifest');
    assert.equal(entry.guide, guideUrl);
    await follow(entry.guide);

    const doc = (await (await fetch(`${service.base}/api/v2/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { deprecated?: boolean; description?: string }>>;
    };
    const operation = doc.paths['/api/v2/users/{id}/posts']!.get!;
    assert.equal(operation.deprecated, true);
    const linked = [...(operation.description ?? '').matchAll(/\/api\/versions\/[^\s.]+/g)].map((m) => m[0]);
    assert.ok(linked.length > 0, operation.description);
    for (const url of linked) await follow(url);
  });

  it('lists the endpoint, what to do instead and its sunset', async () => {
    const guide = await follow(guideUrl);
    const row = guide.deprecatedEndpoints?.find((e) => e.endpoint === 'GET /api/users/{id}/posts');
    assert.ok(row, JSON.stringify(guide));
    assert.equal(row.rule, 'endpoint-deprecated');
    assert.match(row.newBehaviour, /no replacement is declared/);
    assert.ok(row.newBehaviour.includes(sunsetAt.replace(/\.000Z$/, 'Z')), row.newBehaviour);
    assert.equal(guide.timeline.sunsetAt, sunsetAt.replace(/\.000Z$/, 'Z'));
    const markdown = await (await fetch(`${service.base}${guideUrl}`, { headers: { accept: 'text/markdown' } })).text();
    assert.match(markdown, /## Deprecated endpoints\n\n\| Endpoint \| Old behaviour \| New behaviour \|/);
    assert.match(markdown, /\n\| GET \/api\/users\/\{id\}\/posts \| calls the endpoint \| no replacement is declared/);
  });
});
