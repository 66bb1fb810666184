import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nginxSecretHeader, nginxUsagePath } from '../../src/gateway/nginx/control-paths.ts';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { startDataPlane, type DataPlane } from '../support/nginx.ts';

const admin = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Counts = Record<string, number>;

/** Calls per `version endpoint client` from `/admin/v1/usage/operations` (every call) or `/usage/endpoints` (deprecated ones). */
async function usage(base: string, route: 'operations' | 'endpoints'): Promise<Counts> {
  const res = await fetch(`${base}/admin/v1/usage/${route}`, { headers: admin });
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    data: Array<{ version: string; endpoint: string; clientId: string; calls: number }>;
  };
  const counts: Counts = {};
  for (const r of body.data) {
    const key = `${r.version} ${r.endpoint} ${r.clientId}`;
    counts[key] = (counts[key] ?? 0) + r.calls;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** Wait until the operation counts are `expected`, then a little longer: what is counted once stays counted once. */
async function expectOperations(base: string, expected: Counts): Promise<void> {
  const want = JSON.stringify(Object.fromEntries(Object.entries(expected).sort(([a], [b]) => a.localeCompare(b))));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && JSON.stringify(await usage(base, 'operations')) !== want)
    await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(JSON.stringify(await usage(base, 'operations')), want);
}

describe("usage counted in nginx's shared memory, sent to the control plane", () => {
  let python: PythonUpstream;
  let plane: DataPlane;
  let secret = '';
  const post = (body: unknown, headers: Record<string, string> = { [nginxSecretHeader]: secret }) =>
    fetch(`${plane.control}${nginxUsagePath}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  before(async () => {
    python = await startPythonUpstream();
    plane = await startDataPlane({
      upstream: python.url,
      file: { versions: { v1: { deprecatedAt: iso(Date.now() - 10 * day), sunsetAt: iso(Date.now() + 200 * day) } } },
      // No flush but a worker's exit: what reaches the control plane is what the reload and the stop sent.
      usageIntervalSeconds: 3600,
    });
    secret = readFileSync(join(plane.out, 'private', 'secret'), 'utf8').trim();
  });
  after(async () => {
    await plane?.stop();
    await python?.stop();
  });

  it('records a batch posted again once, and refuses one without the secret or not of the format', async () => {
    const minute = Math.floor(Date.now() / 60_000);
    const entry = {
      client: 'zed',
      version: 'v2',
      method: 'GET',
      operation: '/users',
      minute,
      status: 200,
      deprecated: '',
      calls: 3,
    };
    const batch = { instance: 'test-1', seq: 1, entries: [entry] };
    // Its acknowledgement lost, nginx posts the batch again: recorded once.
    for (let i = 0; i < 2; i++) assert.equal((await post(batch)).status, 200);
    const refused = await post({ ...batch, seq: 2 }, {});
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    const malformed = await post({ instance: 'test-1', seq: 2, entries: [{ ...entry, calls: -1 }] });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.match(((await malformed.json()) as { detail: string }).detail, /calls/);
    await expectOperations(plane.control, { 'v2 GET /users zed': 3 });
  });

  it('loses no call through a reload and a graceful stop', async () => {
    const created = async (path: string, body: unknown) =>
      (await (
        await fetch(`${plane.control}/admin/v1/${path}`, {
          method: 'POST',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, string>;
    const acme = await created('clients', { name: 'Acme', contacts: ['dev@acme.test'] });
    const { key } = await created('api-keys', { name: 'acme', roles: ['read'], clientId: acme.id });
    const call = async (path: string) =>
      (await fetch(`${plane.base}${path}`, { headers: { authorization: `Bearer ${key}` } })).status;
    // Calls, then a reload: the old worker sends them as it exits.
    for (let i = 0; i < 12; i++) assert.equal(await call(`/api/v1/users/1`), 200);
    for (let i = 0; i < 5; i++) assert.equal(await call('/api/v2/users'), 200);
    await plane.signal('reload');
    await expectOperations(plane.control, {
      'v2 GET /users zed': 3,
      [`v1 GET /users/{id} ${acme.id}`]: 12,
      [`v2 GET /users ${acme.id}`]: 5,
    });
    // More calls, then a graceful stop: the exiting worker sends them too.
    for (let i = 0; i < 7; i++) assert.equal(await call(`/api/v1/users/1`), 200);
    for (let i = 0; i < 3; i++) assert.equal(await call('/api/v2/users'), 200);
    await plane.signal('quit');
    await expectOperations(plane.control, {
      'v2 GET /users zed': 3,
      [`v1 GET /users/{id} ${acme.id}`]: 19,
      [`v2 GET /users ${acme.id}`]: 8,
    });
    // Deprecated v1's calls are in the per-client usage too, as the gateway records them.
    assert.deepEqual(await usage(plane.control, 'endpoints'), { [`v1 GET /users/{id} ${acme.id}`]: 19 });
    assert.doesNotMatch(plane.log(), /not yet acknowledged/);
  });
});
