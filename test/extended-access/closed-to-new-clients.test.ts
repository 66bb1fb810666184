import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);
const sunsetAt = iso(t0 + 200 * day);

/**
 * A version closed to new clients stays deprecated on its one public timeline ("A concrete sunset
 * date is given"): clients that had called it go on until that sunset; the others, who never
 * depended on it, are pointed at the replacement with a 403 of its own type.
 */
describe('closed to new clients, set through the management API while the server runs (SQLite)', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const call = (who?: string) =>
    fetch(`${service.base}/api/v1/users`, who ? { headers: { authorization: `Bearer ${keys[who]}` } } : {});

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: { deprecatedAt: iso(t0 - 10 * day), sunsetAt, migrationUrl: 'https://docs.example.com/v1-to-v2' },
        },
      },
    });
    admin = adminCaller(service);
    for (const name of ['early', 'late']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
    }
  });
  after(() => service.stop());

  it('answers 403 to a client that never called it, 200 to one that did', async () => {
    assert.equal((await call('early')).status, 200);
    now = t0 + day;
    const closed = await admin('PUT', '/admin/v1/versions/v1/deprecation', {
      sunsetAt,
      closedToNewClientsAt: iso(t0 + day),
    });
    assert.equal(closed.statusCode, 200, closed.body);
    now = t0 + 2 * day;
    const known = await call('early');
    assert.equal(known.status, 200, await known.text());
    assert.equal(new Date(known.headers.get('sunset')!).getTime(), Date.parse(sunsetAt), 'its public sunset');
    const fresh = await call('late');
    assert.equal(fresh.status, 403);
    const problem = (await fresh.json()) as { code: string; replacement: string; migrationGuide: string };
    assert.equal(problem.code, 'CLOSED_TO_NEW_CLIENTS');
    assert.equal(problem.replacement, 'v2');
    assert.equal(problem.migrationGuide, 'https://docs.example.com/v1-to-v2');
    assert.match(fresh.headers.get('content-type')!, /application\/problem\+json/);
    // A refusal is not a call: it never lets the client in later.
    now = t0 + 3 * day;
    assert.equal((await call('late')).status, 403);
    assert.equal((await call('early')).status, 200);
  });

  it('shows the closing in the manifest, the deprecations list and the version document', async () => {
    const closing = iso(t0 + day);
    const manifest = (await (await fetch(`${service.base}/api/deprecations`)).json()) as {
      deprecations: Array<{ name: string; closedToNewClients?: string; extendedAccessUntil?: string }>;
    };
    const v1 = manifest.deprecations.find((d) => d.name === 'v1')!;
    assert.equal(v1.closedToNewClients, closing);
    assert.equal('extendedAccessUntil' in v1, false, 'absent when unset');
    const listed = json(await admin('GET', '/admin/v1/deprecations')) as {
      data: Array<{ name: string; closedToNewClientsAt?: string }>;
    };
    assert.equal(listed.data.find((d) => d.name === 'v1')?.closedToNewClientsAt, closing);
    const document = (await (await fetch(`${service.base}/api/v1/openapi.json`)).json()) as {
      info: Record<string, unknown>;
    };
    assert.equal(document.info['x-closed-to-new-clients'], closing);
  });

  it('refuses a cap that is not after the sunset with a 400 problem', async () => {
    const bad = await admin('PUT', '/admin/v1/versions/v1/deprecation', {
      sunsetAt,
      extendedAccessUntil: sunsetAt,
      closedToNewClientsAt: 'soon',
    });
    assert.equal(bad.statusCode, 400, bad.body);
  });
});
