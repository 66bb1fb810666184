import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestTelemetry, type TestTelemetry } from '../support/otel-sdk.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

/**
 * The service's calls on the traces a team already runs: the request's span (the one
 * `@fastify/otel` makes) carries the version, its deprecation and sunset, the client, the
 * deprecated fields used and the rule that answered, and the calls are counted by version,
 * deprecation, route and client on the `versionary.calls` counter.
 */
describe('versionary.* attributes on the request span of the service (startService, SQLite)', () => {
  let now = t0;
  let telemetry: TestTelemetry;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const clients: Record<string, string> = {};
  /** Make a call and return the attributes of the request span it produced. */
  const spanOf = async (path: string, init: RequestInit & { status: number }) => {
    const before = telemetry.requestSpans().length;
    const res = await fetch(`${service.base}${path}`, init);
    assert.equal(res.status, init.status, await res.text());
    const spans = telemetry.requestSpans().slice(before);
    assert.equal(spans.length, 1, `one request span for ${path}`);
    return spans[0]!.attributes;
  };
  const bearer = (who: string) => ({ authorization: `Bearer ${keys[who]}` });

  before(async () => {
    telemetry = startTestTelemetry();
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 9 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
        fieldDeprecations: [
          {
            version: 'v2',
            resource: 'User',
            field: 'nickname',
            replacement: 'displayName',
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 300 * day),
            migrationUrl: 'https://docs.example.com/nickname',
          },
        ],
      },
    });
    admin = adminCaller(service);
    for (const name of ['acme', 'globex']) {
      const client = json(await admin('POST', '/admin/v1/clients', { name, contacts: [] })) as { id: string };
      clients[name] = client.id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read', 'write'], clientId: client.id });
      keys[name] = (json(key) as { key: string }).key;
    }
  });
  after(async () => {
    await service.stop();
    await telemetry.stop();
  });

  it('says a v1 call is deprecated, with its sunset, replacement and client, and never the key', async () => {
    const span = await spanOf('/api/v1/users', { headers: bearer('acme'), status: 200 });
    assert.equal(span['versionary.api.version'], 'v1');
    assert.equal(span['versionary.api.version_source'], 'path');
    assert.equal(span['versionary.deprecated'], true);
    assert.equal(span['versionary.sunset'], iso(t0 + 9 * day));
    assert.equal(span['versionary.replacement'], 'v2');
    assert.equal(span['versionary.client.id'], clients.acme);
    assert.equal(span['versionary.decision'], undefined, 'the handler answered');
    assert.equal(span['http.route'], '/api/v1/users', "the instrumentation's own attribute is there too");
    for (const s of telemetry.spans())
      assert.ok(!JSON.stringify(s.attributes).includes(keys.acme!), `no span carries the key (${s.name})`);
  });

  it('says a v2 call is not deprecated, and names no sunset', async () => {
    const span = await spanOf('/api/v2/users', { headers: bearer('globex'), status: 200 });
    assert.equal(span['versionary.api.version'], 'v2');
    assert.equal(span['versionary.deprecated'], false);
    assert.equal(span['versionary.sunset'], undefined);
    assert.equal(span['versionary.client.id'], clients.globex);
  });

  it('says when Accept chose the version', async () => {
    const span = await spanOf('/api/users', {
      headers: { ...bearer('acme'), accept: 'application/vnd.versionary.v2+json' },
      status: 200,
    });
    assert.equal(span['versionary.api.version'], 'v2');
    assert.equal(span['versionary.api.version_source'], 'accept');
  });

  it('names the deprecated fields a call used', async () => {
    const span = await spanOf('/api/v2/users', {
      method: 'POST',
      headers: { ...bearer('acme'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
      status: 201,
    });
    assert.deepEqual(span['versionary.deprecated_elements'], ['User.nickname']);
    assert.equal(span['versionary.deprecated'], true);
  });

  it('counts calls by version, deprecation, route and client on versionary.calls', async () => {
    const points = await telemetry.counter('versionary.calls');
    const v1 = points.find(
      (p) => p.attributes['versionary.api.version'] === 'v1' && p.attributes['versionary.client.id'] === clients.acme,
    );
    assert.ok(v1, JSON.stringify(points));
    assert.deepEqual(v1.attributes, {
      'versionary.api.version': 'v1',
      'versionary.deprecated': true,
      'http.route': '/api/v1/users',
      'versionary.client.id': clients.acme,
    });
    assert.equal(v1.value, 1);
  });

  it('names the brownout that answered instead of the handler', async () => {
    const startsAt = t0 + day;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      endpoint: 'GET /users',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + 3_600_000),
      target: { clients: [clients.globex] },
    });
    assert.equal(planned.statusCode, 201, planned.body);
    now = startsAt + 60_000;
    const span = await spanOf('/api/v1/users', { headers: bearer('globex'), status: 410 });
    assert.equal(span['versionary.decision'], 'brownout');
    assert.equal(span['versionary.client.id'], clients.globex);
  });

  it('names the rule that answered past the sunset: removed for most, extended access for the client with extended access', async () => {
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: clients.acme,
      version: 'v1',
      until: iso(t0 + 60 * day),
      reason: 'mobile app release in March',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    now = t0 + 20 * day;
    const refused = await spanOf('/api/v1/users', { headers: bearer('globex'), status: 410 });
    assert.equal(refused['versionary.decision'], 'removed');
    assert.equal(refused['versionary.api.version'], 'v1');
    const served = await spanOf('/api/v1/users', { headers: bearer('acme'), status: 200 });
    assert.equal(served['versionary.decision'], 'extended_access');
    assert.equal(served['versionary.sunset'], iso(t0 + 60 * day), "the client's own sunset");
  });
});
