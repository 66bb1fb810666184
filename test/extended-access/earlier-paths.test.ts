import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliProcess } from '../support/cli-process.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * The first release named extended access "exemptions": its paths and its CLI command shipped, so
 * they still answer, as aliases of `/admin/v1/extended-access-grants`, `…/extended-access-requests`
 * and `versionary extended-access`, over the same records.
 */
describe('the earlier exemption paths, kept as aliases of extended access', () => {
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  let clientId: string;

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
    clientId = (json(await admin('POST', '/admin/v1/clients', { name: 'Acme', contacts: [] })) as { id: string }).id;
  });
  after(() => service.stop());

  it('grants, lists and revokes on /admin/v1/exemptions the grants of /admin/v1/extended-access-grants', async () => {
    const granted = await admin('POST', '/admin/v1/exemptions', {
      clientId,
      version: 'v1',
      until: iso(t0 + 30 * day),
      reason: 'Q1',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    const { id } = json(granted) as { id: string };
    assert.equal(granted.headers.location, `/admin/v1/exemptions/${id}`);
    const listed = (path: string) => admin('GET', `${path}?clientId=${clientId}`).then((r) => json(r));
    const both = await Promise.all(['/admin/v1/exemptions', '/admin/v1/extended-access-grants'].map(listed));
    assert.deepEqual(both[0], both[1]);
    assert.deepEqual(
      (both[1] as { data: Array<{ id: string }> }).data.map((g) => g.id),
      [id],
    );
    const revoked = await fetch(`${service.base}/admin/v1/exemptions/${id}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer test-admin-key-0123456789' },
    });
    assert.equal(revoked.status, 200, await revoked.text());
    assert.deepEqual(await listed('/admin/v1/extended-access-grants'), { data: [] });
  });

  it('lists the requests on /admin/v1/exemption-requests, and refuses a bad status there too', async () => {
    const earlier = await admin('GET', '/admin/v1/exemption-requests');
    assert.equal(earlier.statusCode, 200, earlier.body);
    assert.deepEqual(json(earlier), json(await admin('GET', '/admin/v1/extended-access-requests')));
    assert.equal((await admin('GET', '/admin/v1/exemption-requests?status=maybe')).statusCode, 400);
  });

  it('runs `versionary exemptions` as `versionary extended-access`', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'versionary-earlier-cli-'));
    const help = await runCliProcess(['exemptions', '--help'], { cwd });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /extended-access grant <clientId>/);
  });
});
