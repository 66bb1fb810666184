import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/service-process.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);
const guide = 'https://docs.example.com/nickname';

/**
 * Fields and query parameters are judged per client as versions and endpoints are: past a
 * field's sunset a client with extended access may still send it, with its own concrete `Sunset`, while every
 * other client gets the 400 `ELEMENT_REMOVED`, and nobody after the cap; a parameter closed to new
 * clients answers 403 to a client that never used it, and goes on for one that had.
 */
describe('per-client rules on deprecated fields and parameters, through startService (SQLite)', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  let userId = '';
  const headers = (who: string): Record<string, string> => ({ authorization: `Bearer ${keys[who]}` });
  const sendNickname = (who: string) =>
    fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers(who), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
    });
  const withFields = (who: string) =>
    fetch(`${service.base}/api/v2/users/${userId}?fields=name`, { headers: headers(who) });

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        fieldDeprecations: [
          {
            version: 'v2',
            resource: 'User',
            field: 'nickname',
            replacement: 'displayName',
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            migrationUrl: guide,
          },
        ],
        parameterDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users/{id}',
            parameter: 'fields',
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 300 * day),
            closedToNewClientsAt: iso(t0 + 5 * day),
          },
        ],
      },
    });
    admin = adminCaller(service);
    for (const name of ['acme', 'globex']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      clients[name] = client.id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read', 'write'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
    }
    const created = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers('acme'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grace' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    userId = ((await created.json()) as { id: string }).id;
  });
  after(() => service.stop());

  it('lets the client with extended access send a field past its sunset with its own Sunset, and refuses the others', async () => {
    const beyond = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v2',
      element: 'User.nickname',
      until: iso(t0 + 101 * day),
      reason: 'x',
    });
    assert.equal(beyond.statusCode, 400, 'never past the cap');
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v2',
      element: 'User.nickname',
      until: iso(t0 + 60 * day),
      reason: 'mobile app release in March',
    });
    assert.equal(granted.statusCode, 201, granted.body);

    now = t0 + 20 * day;
    const own = await sendNickname('acme');
    assert.equal(own.status, 201, await own.clone().text());
    assert.equal(new Date(own.headers.get('sunset')!).getTime(), t0 + 60 * day, 'its own concrete date');
    assert.ok(own.headers.get('deprecation'));
    assert.match(own.headers.get('link')!, /rel="deprecation"; title="User\.nickname"/);
    assert.equal(own.headers.get('warning'), null, 'more than 30 days left');
    const other = await sendNickname('globex');
    assert.equal(other.status, 400);
    assert.equal(((await other.json()) as { code: string }).code, 'ELEMENT_REMOVED');
    // A request without the field is not touched by it.
    const without = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers('globex'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lin' }),
    });
    assert.equal(without.status, 201);

    now = t0 + 45 * day;
    const late = await sendNickname('acme');
    assert.equal(late.status, 201);
    assert.match(late.headers.get('warning')!, /^299 - ".*15 days?/, 'the Warning of its own last 30 days');

    now = t0 + 61 * day;
    assert.equal((await sendNickname('acme')).status, 400, 'its own date has passed');
  });

  it('refuses everyone after the cap', async () => {
    now = t0 + 61 * day;
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.globex,
      version: 'v2',
      element: 'User.nickname',
      until: iso(t0 + 100 * day),
      reason: 'up to the cap',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    assert.equal((await sendNickname('globex')).status, 201);
    now = t0 + 100 * day + 1;
    const refused = await sendNickname('globex');
    assert.equal(refused.status, 400, 'after the cap nobody is served');
    assert.equal(((await refused.json()) as { code: string }).code, 'ELEMENT_REMOVED');
  });

  it('answers 403 on a closed parameter to a client that never used it, 200 to one that did', async () => {
    now = t0 + day;
    const early = await withFields('acme');
    assert.equal(early.status, 200, await early.clone().text());
    assert.ok(early.headers.get('deprecation'));

    // The use reaches the usage store at its next flush: until then the client is asked about
    // again once the few seconds a "never used it" answer is trusted have passed.
    now = t0 + 6 * day;
    let known = await withFields('acme');
    await eventually(async () => {
      now += 6_000;
      known = await withFields('acme');
      return known.status === 200;
    }, 10_000);
    assert.equal(new Date(known.headers.get('sunset')!).getTime(), t0 + 300 * day, 'its public sunset');
    const fresh = await withFields('globex');
    assert.equal(fresh.status, 403);
    assert.match(fresh.headers.get('content-type')!, /application\/problem\+json/);
    const problem = (await fresh.json()) as Record<string, unknown>;
    assert.equal(problem.code, 'CLOSED_TO_NEW_CLIENTS');
    assert.match(problem.detail as string, /^GET \/users\/\{id\}\?fields in v2 is closed to new clients since /);
    assert.equal(problem.closedToNewClientsAt, iso(t0 + 5 * day));
    assert.equal(problem.replacement, null);
    assert.equal(typeof problem.migrationGuide, 'string');
    // The operation itself stays open to everyone; only the parameter is closed.
    const created = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers('globex'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lin' }),
    });
    const { id } = (await created.json()) as { id: string };
    const plain = await fetch(`${service.base}/api/v2/users/${id}`, { headers: headers('globex') });
    assert.equal(plain.status, 200, await plain.clone().text());
    assert.equal(plain.headers.get('deprecation'), null);
    now = t0 + 7 * day;
    assert.equal((await withFields('globex')).status, 403, 'a refusal is not a use');
  });
});
