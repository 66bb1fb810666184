import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

type Row = { clientId: string; version: string; calls: number };

/**
 * A refused call is not usage: three `403 CLOSED_TO_NEW_CLIENTS` answers raised the client's
 * counts, which feed `calledWithinDays` targeting and the MCP `what_breaks` list. Neither the
 * per-operation counts nor the deprecated-call rollups take a 403, 410, 401 or 429.
 */
describe('refused calls are not counted as usage, through startService', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const call = (who: string, path = '/api/v1/users') =>
    fetch(`${service.base}${path}`, { headers: { authorization: `Bearer ${keys[who]}` } });
  const counts = async (client: string) => {
    const operations = json(await admin('GET', `/admin/v1/usage/operations?version=v1&since=${iso(t0 - day)}`)) as {
      data: Row[];
    };
    const deprecated = json(await admin('GET', `/admin/v1/usage/endpoints?version=v1&since=${iso(t0 - day)}`)) as {
      data: Row[];
    };
    const sum = (rows: Row[]) => rows.filter((r) => r.clientId === clients[client]).reduce((n, r) => n + r.calls, 0);
    return { operations: sum(operations.data), deprecated: sum(deprecated.data) };
  };

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 30 * day),
            closedToNewClientsAt: iso(t0 + day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
      },
    });
    admin = adminCaller(service);
    for (const name of ['early', 'late']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      clients[name] = client.id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
    }
  });
  after(() => service.stop());

  it('does not count 403 CLOSED_TO_NEW_CLIENTS answers', async () => {
    assert.equal((await call('early')).status, 200);
    assert.deepEqual(await counts('early'), { operations: 1, deprecated: 1 }, 'an answered call counts');
    now = t0 + 2 * day;
    for (let i = 0; i < 3; i += 1) {
      const refused = await call('late');
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as { code: string }).code, 'CLOSED_TO_NEW_CLIENTS');
    }
    assert.equal((await call('early')).status, 200);
    assert.deepEqual(await counts('late'), { operations: 0, deprecated: 0 });
    assert.deepEqual(await counts('early'), { operations: 2, deprecated: 2 }, 'answered calls count');
  });

  it('does not count 410 answers in a brownout', async () => {
    const hour = 3_600_000;
    const startsAt = now + hour;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + hour),
      target: { clients: [clients.early] },
    });
    assert.equal(planned.statusCode, 201, planned.body);
    now = startsAt + 60_000;
    for (let i = 0; i < 2; i += 1) {
      const refused = await call('early');
      assert.equal(refused.status, 410);
      assert.ok(((await refused.json()) as { brownout?: unknown }).brownout, 'the brownout answered');
    }
    assert.deepEqual(await counts('early'), { operations: 2, deprecated: 2 });
  });

  it('does not count 410 answers past the sunset', async () => {
    now = t0 + 31 * day;
    for (let i = 0; i < 2; i += 1) assert.equal((await call('early')).status, 410);
    assert.equal((await call('early', '/api/v2/users')).status, 200);
    assert.deepEqual(await counts('early'), { operations: 2, deprecated: 2 });
  });
});
