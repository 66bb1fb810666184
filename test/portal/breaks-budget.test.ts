// The "What breaks" page diffs two versions' documents: milliseconds of CPU that every tenant
// shares. Through the started service: the diff is computed once per pair and lifecycle generation
// (the page's `Server-Timing` says which), a lifecycle change through the management API computes
// it afresh, and each signed-in key has a budget of portal pages (60 per 20 seconds by default)
// past which it gets the API's 429 problem while other sign-ins are still served.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';

const adminKey = 'test-admin-key-0123456789';
const breaks = '/portal/breaks?from=v1&to=v2';

describe('the breaks page: one diff per pair, and a budget per signed-in key', () => {
  let service: StartedService;
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${service.base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** A client with its own key, signed in to the portal: the cookie to send. */
  const signedInClient = async (name: string): Promise<string> => {
    const client = await admin('POST', '/clients', { name, contacts: [`dev@${name}.test`] });
    assert.equal(client.status, 201);
    const clientId = ((await client.json()) as { id: string }).id;
    const created = await admin('POST', '/api-keys', { name: `${name}-app`, roles: ['read'], clientId });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };
    const res = await fetch(`${service.base}/portal/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${encodeURIComponent(key)}`,
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    return res.headers
      .getSetCookie()
      .find((c) => c.startsWith('versionary_portal='))!
      .split(';')[0]!;
  };
  const page = (cookie: string, path = breaks) => fetch(`${service.base}${path}`, { headers: { cookie } });

  before(async () => {
    service = await startTestService();
  });
  after(() => service.stop());

  it('computes the diff of a pair once, for every client, until the lifecycle changes', async () => {
    const [acme, globex] = [await signedInClient('acme'), await signedInClient('globex')];
    const first = await page(acme);
    assert.equal(first.status, 200);
    assert.match(first.headers.get('server-timing')!, /^diff;desc="computed";dur=\d+\.\d$/);
    const body = await first.text();
    const again = await page(acme);
    assert.equal(again.headers.get('server-timing'), 'diff;desc="reused";dur=0.0');
    assert.equal(await again.text(), body, 'the same page');
    assert.equal((await page(globex)).headers.get('server-timing'), 'diff;desc="reused";dur=0.0', 'another client');
    const other = await page(acme, '/portal/breaks?from=v2&to=v2');
    assert.match(other.headers.get('server-timing')!, /desc="computed"/, 'another pair is its own');

    // v1 (deprecated by default) gets a migration guide of its own through the management API.
    const guide = 'https://docs.example.test/move-to-v2';
    const rescheduled = await admin('PUT', '/versions/v1/deprecation', { migrationUrl: guide });
    assert.equal(rescheduled.status, 200, await rescheduled.text());
    const changed = await page(acme);
    assert.match(changed.headers.get('server-timing')!, /desc="computed"/, 'a new lifecycle generation');
    assert.ok((await changed.text()).includes(`href="${guide}"`), 'the page shows the new lifecycle');
    assert.match((await page(acme)).headers.get('server-timing')!, /desc="reused"/);
  });

  it('answers 429 past 60 pages per 20 seconds of one key, while another key is served', async () => {
    const [busy, calm] = [await signedInClient('busy'), await signedInClient('calm')];
    for (let i = 0; i < 60; i++) {
      const res = await page(busy, i % 2 ? breaks : '/portal');
      assert.equal(res.status, 200, `page ${i + 1}`);
      assert.equal(res.headers.get('ratelimit-policy'), '"portal-session";q=60;w=20');
      assert.match(res.headers.get('ratelimit')!, new RegExp(`^"portal-session";r=${59 - i};t=\\d+$`));
      await res.arrayBuffer();
    }
    const refused = await page(busy);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type')!, /^application\/problem\+json/);
    const problem = (await refused.json()) as { type: string; status: number; code: string; detail: string };
    assert.equal(problem.status, 429);
    assert.equal(problem.code, 'RATE_LIMITED');
    assert.match(problem.type, /rate-limited/);
    assert.match(
      problem.detail,
      /This sign-in may make 60 requests per 20 seconds to the portal; retry in \d+ seconds\./,
    );
    const retry = Number(refused.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 20, `Retry-After ${retry}`);
    assert.match(refused.headers.get('ratelimit')!, /^"portal-session";r=0;t=\d+$/);

    const served = await page(calm);
    assert.equal(served.status, 200, 'another key has its own budget');
    assert.equal(served.headers.get('ratelimit-policy'), '"portal-session";q=60;w=20');
    const api = await fetch(`${service.base}/api/v2/users`, { headers: { authorization: `Bearer ${adminKey}` } });
    assert.equal(api.status, 200, 'the API is not limited by the pages');
    assert.equal((await fetch(`${service.base}/portal/sign-in`)).status, 200, 'the sign-in form is not counted');
  });
});
