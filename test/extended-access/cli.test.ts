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

describe('versionary extended-access, against a running server', () => {
  let service: StartedService;
  let clientId = '';
  const cwd = mkdtempSync(join(tmpdir(), 'versionary-extended-access-cli-'));
  const cli = (args: string[]) =>
    runCliProcess(['extended-access', ...args, '--server', service.base, '--key', 'test-admin-key-0123456789'], {
      cwd,
    });

  before(async () => {
    service = await startTestService({
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 100 * day),
            sunsetAt: iso(t0 + 100 * day),
            extendedAccessUntil: iso(t0 + 200 * day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
      },
    });
    const res = await adminCaller(service)('POST', '/admin/v1/clients', { name: 'Acme', contacts: [] });
    clientId = (JSON.parse(res.body) as { id: string }).id;
  });
  after(() => service.stop());

  it('grants, lists and revokes; refuses a date past the cap with exit 1', async () => {
    const help = await runCliProcess(['extended-access', '--help'], { cwd });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /extended-access grant <clientId>/);
    const beyond = await cli(['grant', clientId, '--version', 'v1', '--until', iso(t0 + 300 * day), '--reason', 'x']);
    assert.equal(beyond.code, 1, beyond.stderr);
    assert.match(beyond.stderr, /after the cap/);
    const until = iso(t0 + 150 * day);
    const granted = await cli([
      'grant',
      clientId,
      '--version',
      'v1',
      '--until',
      until,
      '--reason',
      'renewal',
      '--format',
      'json',
    ]);
    assert.equal(granted.code, 0, granted.stderr);
    const { id } = JSON.parse(granted.stdout) as { id: string };
    const listed = await cli(['list', '--client', clientId]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${id} .*v1 .*${until}`));
    const revoked = await cli(['revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /^Revoked /);
    assert.equal((await cli(['list'])).stdout, 'No extended access.\n');
    assert.equal((await cli(['revoke', id])).code, 1);
  });
});
