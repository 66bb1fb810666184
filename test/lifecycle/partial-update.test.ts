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
const deprecatedAt = iso(t0 - 10 * day);
const sunsetAt = iso(t0 + 200 * day);

interface Listed {
  data: Array<{ name: string; extendedAccessUntil?: string; closedToNewClientsAt?: string; migrationUrl?: string }>;
}

/**
 * A `PUT …/deprecation` changes what its body carries and nothing else: the cap and the closing
 * alone never re-announce the deprecation, and a closing date that cuts clients off before it was
 * set (in the past, or before the deprecation) is refused as a 400 naming the field.
 */
describe('a partial update of a deprecation, on the started service (SQLite)', () => {
  let now = t0;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const v1 = async () => json(await admin('GET', '/admin/v1/versions/v1')) as Record<string, string>;
  const listed = async () =>
    (json(await admin('GET', '/admin/v1/deprecations')) as Listed).data.find((d) => d.name === 'v1')!;

  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: { versions: { v1: { deprecatedAt, sunsetAt, migrationUrl: 'https://docs.example.com/v1-to-v2' } } },
    });
    admin = adminCaller(service);
  });
  after(() => service.stop());

  it('keeps the deprecation and the sunset when the body carries only the cap and the closing', async () => {
    now = t0 + 4 * day;
    const cap = iso(t0 + 300 * day);
    const closing = iso(t0 + 30 * day);
    const res = await admin('PUT', '/admin/v1/versions/v1/deprecation', {
      extendedAccessUntil: cap,
      closedToNewClientsAt: closing,
    });
    assert.equal(res.statusCode, 200, res.body);
    const after = await v1();
    assert.equal(after.deprecatedAt, deprecatedAt, 'the announced deprecation stays');
    assert.equal(after.sunsetAt, sunsetAt, 'the sunset stays');
    assert.equal(after.migrationUrl, 'https://docs.example.com/v1-to-v2');
    const entry = await listed();
    assert.equal(entry.extendedAccessUntil, cap);
    assert.equal(entry.closedToNewClientsAt, closing);
  });

  it('keeps the cap and the closing when a later body moves only the sunset; null clears one', async () => {
    const later = iso(t0 + 220 * day);
    const moved = await admin('PUT', '/admin/v1/versions/v1/deprecation', { sunsetAt: later });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((await v1()).sunsetAt, later);
    assert.equal((await listed()).extendedAccessUntil, iso(t0 + 300 * day), 'the cap is kept');
    assert.equal((await listed()).closedToNewClientsAt, iso(t0 + 30 * day), 'the closing is kept');
    const cleared = await admin('PUT', '/admin/v1/versions/v1/deprecation', { closedToNewClientsAt: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal('closedToNewClientsAt' in (await listed()), false, 'null unsets the closing');
    assert.equal((await v1()).sunsetAt, later, 'and nothing else moves');
  });

  it('re-announces only when asked with noticeMonths', async () => {
    const res = await admin('PUT', '/admin/v1/versions/v1/deprecation', { noticeMonths: 9 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await v1()).deprecatedAt, iso(now));
  });

  it('refuses a closing date in the past with a 400 problem naming the field, changing nothing', async () => {
    const before = await v1();
    for (const closing of ['2020-01-01', iso(now - 1000)]) {
      const res = await admin('PUT', '/admin/v1/versions/v1/deprecation', { closedToNewClientsAt: closing });
      assert.equal(res.statusCode, 400, res.body);
      const problem = json(res) as { errors: Array<{ pointer: string }>; detail: string };
      assert.deepEqual(
        problem.errors.map((e) => e.pointer),
        ['/body/closedToNewClientsAt'],
      );
      assert.match(problem.detail, /closedToNewClientsAt/);
    }
    assert.deepEqual(await v1(), before);
    assert.equal('closedToNewClientsAt' in (await listed()), false);
  });

  it('refuses an endpoint deprecation closed before it starts', async () => {
    const res = await admin('POST', '/admin/v1/deprecations', {
      version: 'v1',
      method: 'GET',
      path: '/users',
      sunsetAt: iso(now + 200 * day),
      closedToNewClientsAt: iso(now - day),
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /closedToNewClientsAt/);
  });
});

describe('a closing date before the deprecation, on the started service and through the CLI', () => {
  let service: StartedService;
  const cwd = mkdtempSync(join(tmpdir(), 'versionary-closing-cli-'));
  before(async () => {
    service = await startTestService({ file: { versions: { v1: {} } } });
  });
  after(() => service.stop());

  it('answers 400 naming closedToNewClientsAt, in the API and the CLI alike', async () => {
    const body = {
      deprecatedAt: iso(t0 + 10 * day),
      sunsetAt: iso(t0 + 200 * day),
      closedToNewClientsAt: iso(t0 + 5 * day),
    };
    const res = await adminCaller(service)('PUT', '/admin/v1/versions/v1/deprecation', body);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /closedToNewClientsAt/);
    const cli = (closing: string) =>
      runCliProcess(
        [
          ...['versions', 'deprecate', 'v1', '--sunset', iso(t0 + 200 * day)],
          ...['--closed-to-new-clients', closing, '--server', service.base, '--key', 'test-admin-key-0123456789'],
        ],
        { cwd },
      );
    const past = await cli('2020-01-01');
    assert.equal(past.code, 1, past.stderr);
    assert.match(past.stderr, /refused \(400 VALIDATION_FAILED\).*closedToNewClientsAt/);
    const list = await adminCaller(service)('GET', '/admin/v1/versions/v1');
    assert.equal((json(list) as { deprecatedAt: string | null }).deprecatedAt, null, 'nothing was written');
  });

  it('refuses a config file whose closing comes before its deprecation, at start', async () => {
    await assert.rejects(
      startTestService({
        file: { versions: { v1: { deprecatedAt: iso(t0), sunsetAt, closedToNewClientsAt: iso(t0 - day) } } },
      }),
      /versions\.v1\.closedToNewClientsAt must not come before the deprecatedAt/,
    );
    const endpoint = { version: 'v1', method: 'GET', path: '/users', deprecatedAt: iso(t0), sunsetAt };
    await assert.rejects(
      startTestService({
        file: { endpointDeprecations: [{ ...endpoint, closedToNewClientsAt: iso(t0 - day) }] },
      }),
      /endpointDeprecations\[0\]\.closedToNewClientsAt must not come before the deprecatedAt/,
    );
  });

  it('starts with a config file whose closing has passed since (the normal case after a restart)', async () => {
    const started = await startTestService({
      file: { versions: { v1: { deprecatedAt, sunsetAt, closedToNewClientsAt: iso(t0 - day) } } },
    });
    await started.stop();
  });
});
