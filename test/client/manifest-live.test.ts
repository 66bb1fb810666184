import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createVersionaryClient,
  DeprecatedUseError,
  ManifestUnreadableError,
  type ManifestNotice,
} from '../../src/client/index.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.now();
const headers = { authorization: 'Bearer test-admin-key-0123456789' };

// The reference service as `node dist/server.js` composes it, with a deprecated field and query
// parameter of v2 in its config file; v1 is deprecated by default with six months' notice.
const file = {
  fieldDeprecations: [
    {
      version: 'v2',
      resource: 'User',
      field: 'nickname',
      replacement: 'displayName',
      deprecatedAt: iso(now - day),
      sunsetAt: iso(now + 200 * day),
    },
  ],
  parameterDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      parameter: 'fields',
      deprecatedAt: iso(now - day),
      sunsetAt: iso(now + 300 * day),
    },
  ],
};

describe('versionary/client reads the deprecation manifest of a live service', () => {
  let service: StartedService;
  let api: string;
  before(async () => {
    service = await startTestService({ file });
    api = `${service.base}/api`;
  });
  after(() => service.stop());

  it('reports the declared field and the called parameter once each, with dates, replacement and guide', async () => {
    const notices: ManifestNotice[] = [];
    const client = createVersionaryClient({
      baseUrl: api,
      version: 2,
      manifest: { uses: ['User.nickname'] },
      onManifestNotice: (n) => notices.push(n),
      onDeprecation: () => {},
    });
    const created = await client.fetch('/users', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: `ada-${now}@example.com` }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const { id } = (await created.json()) as { id: string | number };
    assert.equal((await client.fetch(`/users/${id}?fields=name`, { headers })).status, 200);
    const found = await client.checkManifest();
    assert.deepEqual(found.map((n) => [n.kind, n.name, n.because]).sort(), [
      ['field', 'User.nickname', 'declared'],
      ['parameter', 'GET /users/{id}?fields', 'called'],
    ]);
    const field = found.find((n) => n.kind === 'field')!;
    assert.equal(field.sunsetAt?.toISOString(), iso(now + 200 * day));
    assert.equal(field.daysLeft, 199);
    assert.equal(field.replacement, 'User.displayName');
    assert.match(field.guideUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\//, 'the guide resolved against the manifest URL');
    assert.equal(notices.length, 2);
    await client.checkManifest();
    assert.equal(notices.length, 2, 'each is reported once per process');
  });

  it('escalates from a warning to an error once v1 is past its sunset, unless told to warn', async () => {
    const early: ManifestNotice[] = [];
    const v1 = createVersionaryClient({ baseUrl: api, version: 1, onManifestNotice: (n) => early.push(n) });
    const [notice] = await v1.checkManifest();
    assert.equal(notice?.kind, 'version');
    assert.equal(notice?.because, 'version');
    assert.equal(notice?.replacement, 'v2');
    assert.ok(notice!.daysLeft! > 0);
    const late = notice!.sunsetAt!.getTime() + day;
    const strict = createVersionaryClient({ baseUrl: api, version: 1, now: () => late, onManifestNotice: () => {} });
    await assert.rejects(strict.checkManifest(), (error: unknown) => {
      assert.ok(error instanceof DeprecatedUseError);
      assert.equal(error.notices[0]!.name, 'v1');
      assert.match(error.message, /already past.*Use v2 instead\. Migration guide: http/s);
      return true;
    });
    const lenient = createVersionaryClient({
      baseUrl: api,
      version: 1,
      now: () => late,
      manifest: { afterSunset: 'warn' },
      onManifestNotice: () => {},
    });
    assert.equal((await lenient.checkManifest())[0]!.daysLeft, -1);
    const ci = createVersionaryClient({ baseUrl: api, version: 1, failWithinDays: 400, onManifestNotice: () => {} });
    await assert.rejects(ci.checkManifest(), /within 400 day\(s\)/);
  });

  it("finds the manifest from a deprecated response's link, and refuses what is not a manifest", async () => {
    const v1 = createVersionaryClient({ baseUrl: `${service.base}/elsewhere`, version: 1, onManifestNotice: () => {} });
    await assert.rejects(v1.checkManifest(), ManifestUnreadableError, 'nothing is served there');
    const linked = createVersionaryClient({
      baseUrl: `${service.base}/elsewhere`,
      version: 1,
      onManifestNotice: () => {},
      onDeprecation: () => {},
      // Only the API's calls reach the service: the manifest is found through their `Link`, or not at all.
      fetch: (input, init) => fetch(String(input).replace('/elsewhere/v1/', '/api/v1/'), init),
    });
    const res = await linked.fetch('/users', { headers });
    assert.equal(res.status, 200);
    assert.equal((await linked.checkManifest())[0]?.name, 'v1');
    const wrong = createVersionaryClient({ baseUrl: api, version: 2, manifest: { url: `${api}/versions` } });
    await assert.rejects(wrong.checkManifest(), /has no "deprecations" list/);
  });
});
