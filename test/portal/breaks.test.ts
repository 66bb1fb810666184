import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';
import { breaksBundle } from './breaks-support.ts';
import { addClient, call, signIn } from './dashboard-support.ts';

const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** The `data-endpoint` rows of the page's changes, and the rules, in page order. */
function shown(body: string): { rules: string[]; endpoints: string[] } {
  return {
    rules: [...body.matchAll(/data-rule="([^"]+)"/g)].map((m) => m[1]!),
    endpoints: [...body.matchAll(/<tr data-endpoint="([^"]+)"/g)].map((m) => m[1]!),
  };
}

// "What breaks for me" over inject: the consumer's own page, the owner's page for any client,
// and bad queries answered 400 as a page for a browser and as a problem for a program.
describe('/portal/breaks', () => {
  let t: TestApp;
  let acme: string;
  let acmeCookie: string;
  let adminCookie: string;
  before(async () => {
    t = await createTestApp({ anonymous: true, bundle: breaksBundle() });
    acme = await addClient(t, { id: 'cl_acme', name: 'Acme <Corp>', roles: ['read', 'write'] });
    const globex = await addClient(t, { id: 'cl_globex', name: 'Globex' });
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${acme}` },
      payload: { name: 'Ada' },
    });
    assert.equal(user.statusCode, 201, user.body);
    await call(t, { key: acme, url: `/api/v1/users/${(user.json() as { id: number }).id}`, times: 3 });
    await call(t, { key: globex, url: '/api/v1/users' });
    acmeCookie = await signIn(t, acme);
    adminCookie = await signIn(t, testAdminKey);
  });
  after(() => t.close());

  it('sends a signed-out visitor to the sign-in page', async () => {
    const res = await t.app.inject({ url: '/portal/breaks?from=v1&to=v2' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/portal/sign-in');
  });

  it('shows a consumer only the change that reaches what it called, with its calls and the guide entry', async () => {
    const res = await t.app.inject({ url: '/portal/breaks', headers: { cookie: acmeCookie } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, /<option value="v1" selected>v1<\/option>/, 'defaults to the version it calls');
    assert.match(res.body, /<select id="to" name="to"><option value="v1">v1<\/option><option value="v2" selected>/);
    assert.deepEqual(shown(res.body), { rules: ['response-property-removed'], endpoints: ['GET /users/{id}'] });
    assert.match(res.body, /The response no longer has the field &quot;login&quot;\./);
    assert.match(res.body, /<td>3<\/td>/);
    assert.match(res.body, /<dd>The response had the field <code>login<\/code>\.<\/dd>/);
    assert.match(res.body, /href="\/api\/versions\/v1\/migration-guide"/);
    assert.match(res.body, /Acme &lt;Corp>/, 'the name is escaped by the template library');
    const explicit = await t.app.inject({ url: '/portal/breaks?from=v1&to=v2', headers: { cookie: acmeCookie } });
    assert.deepEqual(shown(explicit.body), shown(res.body));
  });

  it('says so plainly when nothing the client calls breaks', async () => {
    const res = await t.app.inject({ url: '/portal/breaks?from=v2&to=v2', headers: { cookie: acmeCookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(shown(res.body).rules, []);
    assert.match(res.body, /v2 and v2 are the same version: nothing changes\./);
  });

  it("keeps a consumer to its own client: another's id is not found", async () => {
    const res = await t.app.inject({ url: '/portal/breaks?client=cl_globex', headers: { cookie: acmeCookie } });
    assertProblem(res, { status: 404, code: 'NOT_FOUND' });
  });

  it('shows the owner the same page for any client, and a client field to pick one', async () => {
    const pick = await t.app.inject({ url: '/portal/breaks', headers: { cookie: adminCookie } });
    assert.equal(pick.statusCode, 200);
    assert.match(pick.body, /<input id="client" name="client"/);
    assert.deepEqual(shown(pick.body).rules, []);
    const acmePage = await t.app.inject({ url: '/portal/breaks?client=cl_acme', headers: { cookie: adminCookie } });
    assert.deepEqual(shown(acmePage.body), { rules: ['response-property-removed'], endpoints: ['GET /users/{id}'] });
    assert.match(acmePage.body, /<h1>What breaks for this client<\/h1>/);
    const globex = await t.app.inject({
      url: '/portal/breaks?client=cl_globex&from=v1&to=v2',
      headers: { cookie: adminCookie },
    });
    assert.deepEqual(shown(globex.body), { rules: ['response-type-changed'], endpoints: ['GET /users'] });
    const unknown = await t.app.inject({ url: '/portal/breaks?client=cl_nobody', headers: { cookie: adminCookie } });
    assertProblem(unknown, { status: 404, code: 'NOT_FOUND' });
  });

  it('answers a bad pair 400: a page with the form for a browser, a problem for a program', async () => {
    for (const query of ['from=v9', 'to=v0', 'from=v2&to=v1', 'from=v1&from=v2']) {
      const url = `/portal/breaks?${query}`;
      assertProblem(await t.app.inject({ url, headers: { cookie: acmeCookie } }), {
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      const page = await t.app.inject({ url, headers: { cookie: acmeCookie, ...browser } });
      assert.equal(page.statusCode, 400, query);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /<p class="error" role="alert" id="breaks-error">/);
      assert.match(page.body, /<select id="from" name="from">/);
    }
  });

  it('is linked from the dashboard, with the versions filled in', async () => {
    const home = await t.app.inject({ url: '/portal', headers: { cookie: acmeCookie } });
    assert.match(home.body, /href="\/portal\/breaks\?from=v1&amp;to=v2"/);
    const client = await t.app.inject({ url: '/portal/clients/cl_acme', headers: { cookie: adminCookie } });
    assert.match(client.body, /href="\/portal\/breaks\?from=v1&amp;to=v2&amp;client=cl_acme"/);
  });
});
