// Names and reasons are one line of text for people: control characters (a `\r`, a terminal
// escape) and lone surrogates are refused with a problem naming the field, and nothing is
// stored. A row stored before that rule still prints escaped in `versionary approvals list`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { assertFieldErrors } from '../support/assertions.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

// A forged row: `\r` returns to the line's start, ESC [2K erases it, then a fake approval follows.
const forged = 'ok\r\u001b[2Kapv_0000000000000000  fedcba9876543210  admin';
const bad = [forged, 'a\ud800b', 'two\nlines', 'tab\there', 'bell\u0007', 'c1\u0085next', 'del\u007f'];

const call = adminCaller;

describe('human text fields of the management API', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.stop());

  it('refuses control characters and lone surrogates in an approval reason, storing nothing', async () => {
    for (const reason of bad) {
      const res = await call(service)('POST', '/admin/v1/approvals', { fingerprint: '0123456789abcdef', reason });
      const problem = assertFieldErrors(res, '/body/reason');
      assert.match(problem.detail, /\/body\/reason must be one line of text/, JSON.stringify(reason));
    }
    const list = JSON.parse((await call(service)('GET', '/admin/v1/approvals?include=revoked')).body);
    assert.deepEqual(list.data, []);
  });

  it('refuses the line and paragraph separators and the bidirectional controls, and a blank reason', async () => {
    const invisible = [
      'a\u2028b',
      'a\u2029b',
      ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map(
        (c) => `paid \u0024${String.fromCodePoint(c)}10`,
      ),
    ];
    for (const reason of invisible) {
      const res = await call(service)('POST', '/admin/v1/approvals', { fingerprint: '0123456789abcdef', reason });
      const problem = assertFieldErrors(res, '/body/reason');
      assert.match(problem.detail, /one line of text/, JSON.stringify(reason));
      assertFieldErrors(await call(service)('POST', '/admin/v1/clients', { name: reason }), '/body/name');
    }
    for (const reason of [' ', '   ', '\u00a0\u3000']) {
      const res = await call(service)('POST', '/admin/v1/approvals', { fingerprint: '0123456789abcdef', reason });
      const problem = assertFieldErrors(res, '/body/reason');
      assert.match(problem.detail, /\/body\/reason must be one line of text, not blank/, JSON.stringify(reason));
      const grant = await call(service)('POST', '/admin/v1/extended-access-grants', {
        clientId: 'cl_nobody',
        version: 'v1',
        until: '2099-01-01T00:00:00Z',
        reason,
      });
      assertFieldErrors(grant, '/body/reason');
    }
    const list = JSON.parse((await call(service)('GET', '/admin/v1/approvals?include=revoked')).body);
    assert.deepEqual(list.data, [], 'nothing stored');
    const kept = await call(service)('POST', '/admin/v1/approvals', {
      fingerprint: '0123456789abcdef',
      reason: '  agreed with Acme — Zürich 😀',
    });
    assert.equal(kept.statusCode, 201, kept.body);
  });

  it('refuses them in the names of clients and API keys', async () => {
    for (const name of bad) {
      assertFieldErrors(await call(service)('POST', '/admin/v1/clients', { name }), '/body/name');
      assertFieldErrors(await call(service)('POST', '/admin/v1/api-keys', { name, roles: ['read'] }), '/body/name');
    }
    const created = await call(service)('POST', '/admin/v1/clients', { name: 'Acme — Zürich 😀' });
    assert.equal(created.statusCode, 201, created.body);
    const id = (JSON.parse(created.body) as { id: string }).id;
    assertFieldErrors(await call(service)('PATCH', `/admin/v1/clients/${id}`, { name: forged }), '/body/name');
    const clients = JSON.parse((await call(service)('GET', '/admin/v1/clients')).body) as {
      data: Array<{ name: string }>;
    };
    assert.deepEqual(
      clients.data.map((c) => c.name),
      ['Acme — Zürich 😀'],
    );
    const keys = JSON.parse((await call(service)('GET', '/admin/v1/api-keys')).body) as {
      data: Array<{ name: string }>;
    };
    assert.ok(keys.data.every((k) => !bad.includes(k.name)));
  });
});

describe('versionary approvals list, with a reason stored before the rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-text-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'v.db')}`, LOG_LEVEL: 'silent' };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints control characters escaped, in the table and when revoking', async () => {
    const cli = (args: string[]) => runCliProcess(args, { cwd: dir, env });
    const approved = await cli(['approvals', 'approve', '0123456789abcdef', '--reason', 'agreed', '--format', 'json']);
    assert.equal(approved.code, 0, approved.stderr);
    const { id } = JSON.parse(approved.stdout) as { id: string };
    const storage = await openSqliteStorage({ path: join(dir, 'v.db') });
    await storage.db.updateTable('versionary_change_approvals').set({ reason: forged }).execute();
    await storage.close();

    const list = await cli(['approvals', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.doesNotMatch(list.stdout, /[\r\u001b]/, 'no raw control character reaches the terminal');
    assert.ok(list.stdout.includes(String.raw`ok\r\u001b[2Kapv_0000000000000000`), list.stdout);
    assert.equal(list.stdout.trimEnd().split('\n').length, 2, 'one header and one row');
    const json = await cli(['approvals', 'list', '--format', 'json']);
    assert.equal(JSON.parse(json.stdout).data[0].reason, forged, 'JSON keeps the stored text');
    const revoked = await cli(['approvals', 'revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.doesNotMatch(revoked.stdout, /[\r\u001b]/);

    const refused = await cli(['approvals', 'approve', '0123456789abcdef', '--reason', forged]);
    assert.equal(refused.code, 2, refused.stdout);
    assert.match(refused.stderr, /--reason must be one line of text/);
  });
});
