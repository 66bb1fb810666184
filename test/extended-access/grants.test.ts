import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const guide = 'https://docs.example.com/v1-to-v2';
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * The spec's timeline rules stay whole for every client: "A concrete sunset date is given; a
 * vague announcement is non-conforming" — a client with extended access's `Sunset` is its own concrete date;
 * "After the sunset date the version answers 410 or 404 (documented)" — every other client gets
 * the 410 at the public sunset, and the one with extended access at its own date, never after the cap.
 */
describe('extended access past the sunset, through startService (SQLite)', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const revoke = async (id: string) => {
    const res = await fetch(`${service.base}/admin/v1/extended-access-grants/${id}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
    });
    return { statusCode: res.status, body: await res.text() };
  };
  const call = (who: string) =>
    fetch(`${service.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            migrationUrl: guide,
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
    }
  });
  after(() => service.stop());

  it('refuses a grant beyond the cap, without a client, in the past or with two subjects, listing every error', async () => {
    const beyond = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 101 * day),
      reason: 'late migration',
    });
    assert.equal(beyond.statusCode, 400, beyond.body);
    assert.match(beyond.headers['content-type'] as string, /application\/problem\+json/);
    const problem = json(beyond) as { errors: Array<{ pointer: string; detail: string }> };
    assert.deepEqual(
      problem.errors.map((e) => e.pointer),
      ['/body/until'],
    );
    assert.match(problem.errors[0]!.detail, /after the cap/);
    const several = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: 'cl_nobody',
      endpoint: { version: 'v1', method: 'GET', path: '/users' },
      element: 'User.nickname',
      until: iso(t0 - day),
      reason: 'x',
    });
    assert.equal(several.statusCode, 400, several.body);
    const pointers = (json(several) as { errors: Array<{ pointer: string }> }).errors.map((e) => e.pointer);
    assert.deepEqual(pointers.sort(), ['/body', '/body/clientId', '/body/until']);
    const uncapped = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v2',
      until: iso(t0 + 20 * day),
      reason: 'x',
    });
    assert.equal(uncapped.statusCode, 400, 'v2 is not deprecated, so it has no cap');
  });

  it('serves the client with extended access with its own Sunset after the public one, and 410 to every other client', async () => {
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 60 * day),
      reason: 'contract renewal in March',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    const record = json(granted) as { id: string; grantedBy: string; until: string };
    assert.equal(record.grantedBy, 'admin', 'from the credential, never the body');
    assert.equal(record.until, iso(t0 + 60 * day));
    const listed = json(await admin('GET', `/admin/v1/extended-access-grants?clientId=${clients.acme}`)) as {
      data: Array<{ id: string }>;
    };
    assert.deepEqual(
      listed.data.map((e) => e.id),
      [record.id],
    );

    now = t0 + 20 * day;
    const own = await call('acme');
    assert.equal(own.status, 200, await own.text());
    assert.equal(new Date(own.headers.get('sunset')!).getTime(), t0 + 60 * day, 'its own concrete date');
    assert.ok(own.headers.get('deprecation'));
    assert.match(own.headers.get('link')!, new RegExp(`<${guide}>; rel="deprecation"`));
    assert.equal(own.headers.get('warning'), null, 'more than 30 days left');
    const other = await call('globex');
    assert.equal(other.status, 410);
    assert.equal(((await other.json()) as { code: string }).code, 'VERSION_REMOVED');
    // Nobody unidentified can be the client with extended access: no credential, or a bad one, gets the removal's
    // answer as before any grant ("After the sunset date the version answers 410 or 404"), not a 401.
    const unidentified: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer vk_not_a_key_at_all_0000000000' },
    ];
    for (const headers of unidentified) {
      const anonymous = await fetch(`${service.base}/api/v1/users`, { headers });
      assert.equal(anonymous.status, 410, JSON.stringify(headers));
      assert.equal(((await anonymous.json()) as { code: string }).code, 'VERSION_REMOVED');
      assert.ok(anonymous.headers.get('sunset'), "with the version's public lifecycle headers");
    }

    // "The Warning header is added … when fewer than 30 days remain before its sunset": its own.
    now = t0 + 45 * day;
    const late = await call('acme');
    assert.equal(late.status, 200);
    assert.match(late.headers.get('warning')!, /^299 - ".*15 days?/);

    now = t0 + 61 * day;
    assert.equal((await call('acme')).status, 410, 'its own date has passed');
  });

  it('refuses everyone after the cap, and a revoked grant at once', async () => {
    now = t0 + 61 * day;
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.globex,
      version: 'v1',
      until: iso(t0 + 100 * day),
      reason: 'up to the cap',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    assert.equal((await call('globex')).status, 200);
    now = t0 + 100 * day + 1;
    assert.equal((await call('globex')).status, 410, 'after the cap nobody is served');
    now = t0 + 70 * day;
    const { id } = json(granted) as { id: string };
    const revoked = await revoke(id);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal((json(revoked) as { revokedBy: string }).revokedBy, 'admin');
    assert.equal((await call('globex')).status, 410);
    assert.equal((await revoke(id)).statusCode, 404);
  });
});
