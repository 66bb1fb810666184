import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { startDataPlane, type DataPlane } from '../support/nginx.ts';
import { eventually } from '../support/service-process.ts';

// docs/lifecycle.md, "Recipe: retire v1 while one big customer needs three more months", run
// unchanged through the management API with nginx as the data plane: Acme's own date, the closing
// to new clients, brownouts aimed at the clients still calling, the sunset, and Acme's date.

const day = 86_400_000;
const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const iso = (at: number) => new Date(at).toISOString();
const sunset = t0 + 183 * day;
const closing = t0 + 91 * day;
const cap = t0 + 274 * day;
const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };

describe('the recipe "retire v1 while one big customer needs three more months" behind nginx', () => {
  let now = t0;
  let python: PythonUpstream;
  let nginx: DataPlane;
  const keys: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${nginx.control}/admin/v1${path}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(body),
    });
    assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const at = async (instant: number) => {
    now = instant;
    await nginx.sync();
  };
  const v1 = (who: string) =>
    fetch(`${nginx.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });

  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, clock: { now: () => now } });
    for (const name of ['acme', 'old', 'newbie']) {
      ids[name] = (await call('/clients', { name, contacts: [] })).id as string;
      keys[name] = (await call('/api-keys', { name, roles: ['read'], clientId: ids[name] })).key as string;
    }
    await at(t0);
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('serves Acme past the sunset on its own date, closes v1 to newcomers, browns the stragglers out', async () => {
    // 1. The sunset, the cap and the closing.
    const scheduled = await fetch(`${nginx.control}/admin/v1/versions/v1/deprecation`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({
        sunsetAt: iso(sunset),
        extendedAccessUntil: iso(cap),
        closedToNewClientsAt: iso(closing),
      }),
    });
    assert.equal(scheduled.status, 200, await scheduled.text());
    await at(t0 + 60_000);
    for (const who of ['acme', 'old']) {
      const res = await v1(who);
      assert.equal(res.status, 200, who);
      assert.equal(res.headers.get('sunset'), iso(sunset), who);
    }
    // The calls reach the control plane in nginx's usage batches: the closing and the brownouts are made of them.
    await eventually(async () => {
      const res = await fetch(`${nginx.control}/admin/v1/usage/clients?version=v1&until=${iso(t0 + day)}`, {
        headers: admin,
      });
      const text = await res.text();
      return res.ok && text.includes(ids.old!) && text.includes(ids.acme!);
    }, 10_000);
    // 2. Acme's extension: its own Sunset from the grant on.
    await call('/exemptions', {
      clientId: ids.acme,
      version: 'v1',
      until: iso(cap),
      reason: 'nightly sync ships late',
    });
    await at(t0 + 120_000);
    assert.equal((await v1('acme')).headers.get('sunset'), iso(cap));
    assert.equal((await v1('old')).headers.get('sunset'), iso(sunset));
    // 3. Brownouts for the clients still calling: Acme is spared.
    await call('/brownout-schedules', { version: 'v1', target: { calledWithinDays: 30 } });
    const listed = await fetch(`${nginx.control}/admin/v1/brownouts`, { headers: admin });
    const windows = ((await listed.json()) as { data: Array<{ startsAt: string }> }).data;
    assert.ok(windows.length > 0, 'the schedule planned windows');
    // After the closing: a newcomer gets the 403, the clients that had called go on.
    await at(closing + day);
    const newbie = await v1('newbie');
    assert.equal(newbie.status, 403);
    assert.equal(((await newbie.json()) as { code: string }).code, 'CLOSED_TO_NEW_CLIENTS');
    assert.equal((await v1('old')).status, 200);
    const first = Math.min(...windows.map((w) => Date.parse(w.startsAt)));
    await at(first + 60_000);
    const browned = await v1('old');
    assert.equal(browned.status, 410, 'a brownout aimed at the client still calling');
    assert.match(browned.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal((await v1('acme')).status, 200, 'Acme is spared');
    // 5. The sunset: everyone but Acme gets the 410; Acme its own Sunset, and the Warning in its last 30 days.
    await at(sunset + day);
    assert.equal((await v1('old')).status, 410);
    const acme = await v1('acme');
    assert.equal(acme.status, 200);
    assert.equal(acme.headers.get('sunset'), iso(cap));
    await at(cap - 10 * day);
    assert.match((await v1('acme')).headers.get('warning') ?? '', /^299 - ".*removed in 10 days/);
    // 6. Acme's own date: the 410 for Acme too.
    await at(cap + day);
    const gone = await v1('acme');
    assert.equal(gone.status, 410);
    assert.equal(((await gone.json()) as { code: string }).code, 'VERSION_REMOVED');
  });
});
