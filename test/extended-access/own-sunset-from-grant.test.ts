import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * The recipe "Retire v1 while one big customer needs three more months" (docs/lifecycle.md): from
 * the grant on, the client with extended access's responses carry its own `Sunset`, before the public sunset as
 * after it; every other client keeps the public date.
 */
describe('a client with extended access sees its own Sunset from the grant on (startService, SQLite)', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const sunsetOf = async (who: string) => {
    const res = await fetch(`${service.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });
    assert.equal(res.status, 200, await res.text());
    return new Date(res.headers.get('sunset')!).getTime();
  };

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 100 * day),
            sunsetAt: iso(t0 + 90 * day),
            extendedAccessUntil: iso(t0 + 180 * day),
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
    }
  });
  after(() => service.stop());

  it('answers the client with extended access with its own date before the public sunset, the others with the public one', async () => {
    assert.equal(await sunsetOf('acme'), t0 + 90 * day, 'before the grant: the public date');
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 180 * day),
      reason: 'nightly sync ships in February',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    now = t0 + day;
    assert.equal(await sunsetOf('acme'), t0 + 180 * day, 'from the grant on: its own date');
    assert.equal(await sunsetOf('globex'), t0 + 90 * day, 'everyone else: the public date');
    now = t0 + 120 * day;
    assert.equal(await sunsetOf('acme'), t0 + 180 * day, 'past the public sunset: still its own date');
  });
});
