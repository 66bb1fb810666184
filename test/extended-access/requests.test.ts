import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);
const form = 'application/x-www-form-urlencoded';

/**
 * Requests for extended access: a consumer asks from the portal (the client from its session),
 * the owner lists, grants (through the same cap rule as `POST /admin/v1/extended-access-grants`) or declines,
 * and a request is decided once.
 */
describe('requests for extended access: asked from the portal, decided on /admin/v1/extended-access-requests', () => {
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const cookies: Record<string, string> = {};

  const portal = async (who: string, path: string, init: { body?: Record<string, string>; accept?: string } = {}) => {
    const res = await fetch(`${service.base}${path}`, {
      method: init.body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookies[who]!,
        accept: init.accept ?? 'text/html',
        ...(init.body ? { 'content-type': form, origin: service.base } : {}),
      },
      ...(init.body ? { body: new URLSearchParams(init.body).toString() } : {}),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const csrfOf = async (who: string) => {
    const page = await portal(who, '/portal');
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    assert.ok(match, page.text.slice(0, 300));
    return { page: page.text, csrf: match[1]! };
  };

  before(async () => {
    service = await startTestService({
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
      },
    });
    admin = adminCaller(service);
    for (const name of ['acme', 'globex']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      clients[name] = client.id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
      const called = await fetch(`${service.base}/api/v1/users`, {
        headers: { authorization: `Bearer ${keys[name]}` },
      });
      assert.equal(called.status, 200);
      const signedIn = await fetch(`${service.base}/portal/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': form },
        body: `key=${encodeURIComponent(keys[name]!)}`,
      });
      assert.equal(signedIn.status, 303);
      cookies[name] = signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith('versionary_portal='))!
        .split(';')[0]!;
    }
  });
  after(() => service.stop());

  it('takes a consumer request with a reason for its own client, and refuses bad input beside the form or as a problem', async () => {
    const { page, csrf } = await csrfOf('acme');
    assert.match(page, /Ask for extended access to v1/);
    // A space between the words and the date (the template's line break once swallowed it).
    assert.match(page, new RegExp(`extended access can last until\\s+${iso(t0 + 100 * day).slice(0, 10)}\\s+at most`));
    assert.match(page, /value="version:v1"/);
    const empty = await portal('acme', '/portal/extended-access-requests', {
      body: { _csrf: csrf, subject: 'version:v1', reason: '' },
    });
    assert.equal(empty.status, 400);
    assert.match(empty.text, /id="extended-access-error"[^>]*>Give a reason\./);
    const program = await portal('acme', '/portal/extended-access-requests', {
      body: { _csrf: csrf, subject: 'version:v1', reason: 'x', until: iso(t0 + 101 * day).slice(0, 10) },
      accept: 'application/json',
    });
    assert.equal(program.status, 400);
    assert.match(program.headers.get('content-type')!, /application\/problem\+json/);
    assert.match(program.text, /after the last possible one/);
    const forged = await portal('acme', '/portal/extended-access-requests', {
      body: { _csrf: 'forged', subject: 'version:v1', reason: 'x' },
    });
    assert.equal(forged.status, 403);
    const foreign = await fetch(`${service.base}/portal/extended-access-requests`, {
      method: 'POST',
      headers: { cookie: cookies.acme!, 'content-type': form, origin: 'https://evil.example' },
      body: new URLSearchParams({ _csrf: csrf, subject: 'version:v1', reason: 'x' }).toString(),
    });
    assert.equal(foreign.status, 403);

    const asked = await portal('acme', '/portal/extended-access-requests', {
      body: {
        _csrf: csrf,
        subject: 'version:v1',
        reason: 'our mobile release ships in March',
        until: iso(t0 + 50 * day).slice(0, 10),
        clientId: clients.globex!,
      },
    });
    assert.equal(asked.status, 303, asked.text.slice(0, 300));
    const after = await portal('acme', '/portal');
    assert.doesNotMatch(after.text, /value="version:v1"/, 'asked once: no second form while it is pending');
    assert.match(after.text, /class="request-pending"/);
    const listed = json(await admin('GET', '/admin/v1/extended-access-requests?status=pending')) as {
      data: Array<{ clientId: string; version: string; reason: string; requestedUntil: string; status: string }>;
    };
    assert.equal(listed.data.length, 1);
    assert.equal(listed.data[0]!.clientId, clients.acme, 'the client from the session, never from the form');
    assert.equal(listed.data[0]!.reason, 'our mobile release ships in March');
    assert.equal(listed.data[0]!.requestedUntil, `${iso(t0 + 50 * day).slice(0, 10)}T00:00:00.000Z`);
    assert.equal((await admin('GET', '/admin/v1/extended-access-requests?status=maybe')).statusCode, 400);
  });

  it('grants within the cap only, makes the grant, and refuses deciding twice', async () => {
    const [pending] = (
      json(await admin('GET', '/admin/v1/extended-access-requests')) as { data: Array<{ id: string }> }
    ).data;
    const path = `/admin/v1/extended-access-requests/${pending!.id}`;
    const beyond = await admin('POST', `${path}/decisions`, { decision: 'granted', until: iso(t0 + 101 * day) });
    assert.equal(beyond.statusCode, 400, beyond.body);
    assert.match(beyond.body, /after the cap/);
    const granted = await admin('POST', `${path}/decisions`, {
      decision: 'granted',
      until: iso(t0 + 60 * day),
      reason: 'until March',
    });
    assert.equal(granted.statusCode, 200, granted.body);
    const record = json(granted) as { status: string; exemptionId: string; decidedBy: string; decisionNote: string };
    assert.equal(record.status, 'granted');
    assert.equal(record.decidedBy, 'admin');
    assert.equal(record.decisionNote, 'until March');
    const extendedAccess = json(await admin('GET', `/admin/v1/extended-access-grants?clientId=${clients.acme}`)) as {
      data: Array<{ id: string; until: string }>;
    };
    assert.deepEqual(
      extendedAccess.data.map((e) => [e.id, e.until]),
      [[record.exemptionId, iso(t0 + 60 * day)]],
    );
    const twice = await admin('POST', `${path}/decisions`, { decision: 'declined', reason: 'changed my mind' });
    assert.equal(twice.statusCode, 409, twice.body);
    assert.match(twice.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal(
      (await admin('POST', `${path}/decisions`, { decision: 'granted', until: iso(t0 + 60 * day) })).statusCode,
      409,
    );
    assert.equal(
      (
        await admin('POST', '/admin/v1/extended-access-requests/exr_nope/decisions', {
          decision: 'granted',
          until: iso(t0 + 9 * day),
        })
      ).statusCode,
      404,
    );
    const page = await portal('acme', '/portal');
    assert.match(page.text, new RegExp(`class="grant-until">${iso(t0 + 60 * day).slice(0, 10)}<`));
    assert.match(page.text, /class="request-granted"/);
  });

  it('declines with a reason, and the consumer sees it', async () => {
    const { csrf } = await csrfOf('globex');
    const asked = await portal('globex', '/portal/extended-access-requests', {
      body: { _csrf: csrf, subject: 'version:v1', reason: 'we need a quarter' },
    });
    assert.equal(asked.status, 303, asked.text.slice(0, 300));
    const [pending] = (
      json(await admin('GET', '/admin/v1/extended-access-requests?status=pending')) as { data: Array<{ id: string }> }
    ).data;
    const path = `/admin/v1/extended-access-requests/${pending!.id}`;
    assert.equal(
      (await admin('POST', `${path}/decisions`, { decision: 'declined' })).statusCode,
      400,
      'a reason is required',
    );
    const declined = await admin('POST', `${path}/decisions`, {
      decision: 'declined',
      reason: 'v2 has every field you call',
    });
    assert.equal(declined.statusCode, 200, declined.body);
    assert.equal((json(declined) as { status: string }).status, 'declined');
    assert.equal((await admin('POST', `${path}/decisions`, { decision: 'declined', reason: 'again' })).statusCode, 409);
    const page = await portal('globex', '/portal');
    assert.match(page.text, /class="request-declined"/);
    assert.match(page.text, /v2 has every field you call/);
    assert.match(page.text, /value="version:v1"/, 'declined: it may ask again');
  });
});
