import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { decide, type DecisionTable } from '../../src/core/rulebook/index.ts';
import { adminCaller, startTestService } from '../support/started-service.ts';
import { testEpoch } from '../support/test-app.ts';

const admin = { authorization: 'Bearer test-admin-key-0123456789' };
const facts = (version: string, template: string) => ({
  method: 'GET',
  path: '',
  version,
  versionSource: 'path' as const,
  template,
  now: testEpoch,
});

test('GET /admin/v1/decision-table: admin keys only, ETag the generation, 304 until a deprecation moves it', async () => {
  const service = await startTestService({ clock: { now: () => testEpoch } });
  try {
    const url = `${service.base}/admin/v1/decision-table`;
    assert.equal((await fetch(url)).status, 401);
    const first = await fetch(url, { headers: admin });
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    const table = (await first.json()) as DecisionTable;
    assert.equal(etag, `"${table.generation}"`);
    assert.equal(table.format, 1);
    assert.deepEqual(table.versions.slice(0, 2), ['v1', 'v2']);
    // The default: v1 deprecated, v2 current. The table says what the service sends.
    const v1 = await fetch(`${service.base}/api/v1/users`);
    const decision = decide(
      {
        method: 'GET',
        path: '/api/v1/users',
        version: 'v1',
        versionSource: 'path',
        template: '/users',
        now: testEpoch,
      },
      table,
    );
    assert.equal(decision.outcome, 'allow');
    for (const name of ['deprecation', 'sunset', 'link'])
      assert.equal(decision.headers[name], v1.headers.get(name), `${name} as the service sends it`);

    const unchanged = await fetch(url, { headers: { ...admin, 'if-none-match': etag! } });
    assert.equal(unchanged.status, 304);

    const call = adminCaller(service);
    const put = await call('PUT', '/admin/v1/versions/v1/deprecation', { noticeMonths: 12 });
    assert.equal(put.statusCode, 200, put.body);
    const moved = await fetch(url, { headers: { ...admin, 'if-none-match': etag! } });
    assert.equal(moved.status, 200, 'the ETag moved with the version deprecated again');
    const movedTag = moved.headers.get('etag');
    assert.notEqual(movedTag, etag);
    const after = (await moved.json()) as DecisionTable;
    const v1Again = await fetch(`${service.base}/api/v1/users/1`);
    const again = decide({ ...facts('v1', '/users/{id}'), path: '/api/v1/users/1' }, after);
    assert.equal(again.headers.sunset, v1Again.headers.get('sunset'));
    assert.equal(again.headers.sunset, (JSON.parse(put.body) as { sunsetAt: string }).sunsetAt);

    const endpoint = await call('POST', '/admin/v1/deprecations', {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      noticeMonths: 12,
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const third = await fetch(url, { headers: { ...admin, 'if-none-match': movedTag! } });
    assert.equal(third.status, 200, 'and with an endpoint deprecated');
    const v2 = decide(
      { ...facts('v2', '/users/{id}'), path: '/api/v2/users/1' },
      (await third.json()) as DecisionTable,
    );
    const served = await fetch(`${service.base}/api/v2/users/1`);
    assert.equal(v2.outcome, 'allow');
    for (const name of ['deprecation', 'sunset', 'link'])
      assert.equal(v2.headers[name], served.headers.get(name), name);
  } finally {
    await service.stop();
  }
});

test('docs/decision-table.md names every problem key the served table holds, and no other', async () => {
  const service = await startTestService({ clock: { now: () => testEpoch } });
  try {
    const response = await fetch(`${service.base}/admin/v1/decision-table`, { headers: admin });
    assert.equal(response.status, 200);
    const table = (await response.json()) as DecisionTable;
    const doc = readFileSync(new URL('../../docs/decision-table.md', import.meta.url), 'utf8');
    const keys = Object.keys(table.problems);
    // Row problems are numbered references (documented as such); every other key is named.
    const named = keys.filter((key) => !/^p[1-9][0-9]*$/.test(key));
    assert.ok(named.some((key) => key.startsWith('rate-limited:')) && named.includes('target-not-a-path'));
    const undocumented = named.filter(
      (key) => !doc.includes(`\`${key.startsWith('rate-limited:') ? 'rate-limited:<policy>' : key}\``),
    );
    assert.deepEqual(undocumented, [], 'keys of the served table missing from docs/decision-table.md');
    // And the other way: every named key the page lists is one the table holds.
    const listed = [...doc.matchAll(/`((?:target|version|credentials|not|upstream)-[a-z-]+)`/g)].map((m) => m[1]!);
    assert.deepEqual(
      [...new Set(listed)].filter((key) => !keys.includes(key)),
      [],
      'keys docs/decision-table.md lists that the table does not hold',
    );
    assert.ok(
      keys.some((key) => /^p[1-9]/.test(key)),
      'v1 deprecated: its removal is a numbered row problem',
    );
  } finally {
    await service.stop();
  }
});
