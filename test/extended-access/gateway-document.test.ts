import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, spawnGateway, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };
const v1 = {
  deprecatedAt: iso(t0 - 300 * day),
  sunsetAt: iso(t0 - day),
  closedToNewClientsAt: iso(t0 - 100 * day),
  extendedAccessUntil: iso(t0 + 100 * day),
  replacement: 'v2',
};
const endpoint = {
  version: 'v2',
  method: 'GET',
  path: '/users/{id}',
  deprecatedAt: iso(t0 - day),
  sunsetAt: iso(t0 + 200 * day),
  closedToNewClientsAt: iso(t0 + 20 * day),
  extendedAccessUntil: iso(t0 + 300 * day),
};

type Document = {
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

// `versionary gateway` as users run it (the built CLI): a removed version with a cap on extended
// access, one client granted it. Its document says what the service's own documents say.
describe('versionary gateway: the documents of a removed version and a deprecated endpoint with access dates', () => {
  let python: PythonUpstream;
  let gateway: Awaited<ReturnType<typeof spawnGateway>>;
  let key: string;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${gateway.base}/admin/v1${path}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    assert.ok(res.status < 300, JSON.stringify(json));
    return json;
  };
  const document = async (version: string) => {
    const res = await fetch(`${gateway.base}/api/${version}/openapi.json`);
    assert.equal(res.status, 200);
    return (await res.json()) as Document;
  };
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      file: { versions: { v1 }, endpointDeprecations: [endpoint] },
    });
    const client = await post('/clients', { name: 'acme', contacts: [] });
    key = (await post('/api-keys', { name: 'acme', roles: ['read'], clientId: client.id })).key as string;
    await post('/extended-access-grants', {
      clientId: client.id,
      version: 'v1',
      until: iso(t0 + 30 * day),
      reason: 'renewal',
    });
  });
  after(async () => {
    await gateway?.stop();
    await python?.stop();
  });

  it("the removed version's info carries x-extended-access-until and x-closed-to-new-clients", async () => {
    const { info } = await document('v1');
    assert.equal(info['x-removed'], true);
    assert.equal(info['x-sunset'], v1.sunsetAt);
    assert.equal(info['x-extended-access-until'], v1.extendedAccessUntil);
    assert.equal(info['x-closed-to-new-clients'], v1.closedToNewClientsAt);
  });

  // The spec (Timeline rules, 6): "After the sunset date the version answers 410 or 404 (documented)".
  // Every client but the one granted extended access gets the 410; v1 had closed to new clients
  // before its removal, and that closing does not refuse the granted client past it.
  it('its description tells of extended access, which the client with extended access gets, not that every request answers 410', async () => {
    const own = await fetch(`${gateway.base}/api/v1/users`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(own.status, 200, await own.text());
    assert.equal((await fetch(`${gateway.base}/api/v1/users`)).status, 410);
    const description = String((await document('v1')).info.description);
    assert.match(description, /^REMOVED: v1 was removed at its sunset date/);
    assert.doesNotMatch(description, /Every request to it answers 410 with a problem body[;.]/);
    assert.ok(
      description.includes(
        `except from clients granted extended access, until their own date and no later than ${v1.extendedAccessUntil}`,
      ),
      description,
    );
  });

  it("a deprecated endpoint's operation carries its own dates", async () => {
    const operation = (await document('v2')).paths['/users/{id}']!.get!;
    assert.equal(operation.deprecated, true);
    assert.equal(operation['x-extended-access-until'], endpoint.extendedAccessUntil);
    assert.equal(operation['x-closed-to-new-clients'], endpoint.closedToNewClientsAt);
  });
});
