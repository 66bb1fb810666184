import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * One grant of extended access per client and subject: the same access granted twice left a
 * second row behind the first's revocation, and the dashboard listed each. A second grant is a 409
 * naming the one in force; after a revocation the subject can be granted again.
 */
describe('one extended access per client and subject, through startService', () => {
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const clients: Record<string, string> = {};
  const grant = (client: string, until: number) =>
    admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients[client],
      version: 'v1',
      until: iso(until),
      reason: 'Q1',
    });
  const active = async (client: string) =>
    (
      json(await admin('GET', `/admin/v1/extended-access-grants?clientId=${clients[client]}`)) as {
        data: Array<{ id: string }>;
      }
    ).data;

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
    }
  });
  after(() => service.stop());

  it('answers a second grant with a 409 naming the first, and lists one', async () => {
    const first = await grant('acme', t0 + 30 * day);
    assert.equal(first.statusCode, 201, first.body);
    const { id } = json(first) as { id: string };
    for (const until of [t0 + 30 * day, t0 + 60 * day, t0 + 30 * day]) {
      const again = await grant('acme', until);
      const problem = assertProblem(again, { status: 409, code: 'CONFLICT' });
      assert.ok(problem.detail.includes(id), problem.detail);
    }
    assert.deepEqual(
      (await active('acme')).map((e) => e.id),
      [id],
    );
    const other = await grant('globex', t0 + 30 * day);
    assert.equal(other.statusCode, 201, 'another client is another grant');
  });

  it('grants the subject again once the one in force is revoked', async () => {
    const [inForce] = await active('acme');
    const revoked = await fetch(`${service.base}/admin/v1/extended-access-grants/${inForce!.id}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
    });
    assert.equal(revoked.status, 200, await revoked.text());
    assert.deepEqual(await active('acme'), [], 'no duplicate left behind the revocation');
    const regranted = await grant('acme', t0 + 60 * day);
    assert.equal(regranted.statusCode, 201, regranted.body);
    assert.equal((await active('acme')).length, 1);
  });
});
