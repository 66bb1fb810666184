import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  gatewayInFrontOfPython,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
} from '../support/gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const query = (name: string) => ({ name, in: 'query', required: false, schema: { type: 'string' } });

// The gateway judges what it can see of a request without reading its body: query parameters.
describe('gateway: a deprecated query parameter in front of a Python API', () => {
  const gateway = gatewayInFrontOfPython({
    editDocument: (version, document) => {
      if (version !== 'v2') return;
      const users = (document.paths as Record<string, { get: { parameters?: unknown[] } }>)['/api/v2/users']!;
      users.get.parameters = [query('page'), query('cursor'), query('offset')];
    },
    file: {
      parameterDeprecations: [
        {
          version: 'v2',
          method: 'GET',
          path: '/users',
          parameter: 'page',
          deprecatedAt: iso(Date.now() - day),
          sunsetAt: iso(Date.now() + 200 * day),
          replacement: 'cursor',
        },
        {
          version: 'v2',
          method: 'GET',
          path: '/users',
          parameter: 'offset',
          deprecatedAt: iso(Date.now() - 400 * day),
          sunsetAt: iso(Date.now() - day),
          replacement: 'cursor',
        },
      ],
    },
  });

  it('tells and counts the requests that send it, refuses one past its sunset, and leaves the rest alone', async () => {
    const sent = await fetch(`${gateway.base}/api/v2/users?page=2`, { headers: auth });
    assert.equal(sent.status, 200);
    assert.ok(sent.headers.get('deprecation'));
    assert.match(sent.headers.get('link') ?? '', /rel="deprecation"; title="GET \/users\?page"/);
    const clean = await fetch(`${gateway.base}/api/v2/users?cursor=abc`, { headers: auth });
    assert.equal(clean.status, 200);
    assert.equal(clean.headers.get('deprecation'), null);
    const late = await fetch(`${gateway.base}/api/v2/users?offset=20`, { headers: auth });
    assert.equal(late.status, 400);
    const problem = (await late.json()) as { code: string; detail: string };
    assert.equal(problem.code, 'ELEMENT_REMOVED');
    assert.match(problem.detail, /Use GET \/users\?cursor instead/);
    // Counted per client, as the management API lists it once the usage buffer is written.
    let page: { usage: { calls: number; clients: number } } | undefined;
    for (let i = 0; i < 40 && !page?.usage.calls; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const listing = (await (await fetch(`${gateway.base}/admin/v1/deprecations`, { headers: auth })).json()) as {
        data: Array<{ name: string; usage: { calls: number; clients: number } }>;
      };
      page = listing.data.find((d) => d.name === 'GET /users?page');
    }
    assert.equal(page?.usage.calls, 1);
    assert.equal(page?.usage.clients, 1);
  });

  it('documents it as the service documents its own: deprecated with the generators’ extensions, and the one past its sunset left out', async () => {
    const res = await fetch(`${gateway.base}/api/v2/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as {
      paths: Record<string, { get: { parameters: Array<Record<string, unknown>> } }>;
    };
    const parameters = doc.paths['/users']!.get.parameters;
    const page = parameters.find((p) => p.name === 'page')!;
    assert.equal(page.deprecated, true);
    assert.equal(typeof page['x-sunset'], 'string');
    assert.equal(page['x-speakeasy-deprecation-replacement'], 'cursor');
    assert.match(
      String(page['x-stainless-deprecation-message']),
      /^Deprecated since .*; sunset .* \(removed after\)\. Use `cursor` instead\./,
    );
    assert.equal(page['x-fern-availability'], 'deprecated');
    assert.equal(parameters.find((p) => p.name === 'cursor')!.deprecated, undefined);
    assert.equal(
      parameters.find((p) => p.name === 'offset'),
      undefined,
      'refused past its sunset, so not documented',
    );
  });
});

// `versionary gateway` as users run it: the field named in `fields=` is a use, however the query
// spells the name, since the gateway cannot know how the upstream behind it reads one.
describe('versionary gateway: a deprecated field named in fields=, and the spellings of a name', () => {
  let python: PythonUpstream;
  let gateway: Awaited<ReturnType<typeof spawnGateway>>;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      editDocument: (version, document) => {
        if (version !== 'v2') return;
        const users = (document.paths as Record<string, { get: { parameters?: unknown[] } }>)['/api/v2/users']!;
        users.get.parameters = [query('page'), query('cursor'), query('fields')];
      },
      file: {
        fieldDeprecations: [
          {
            version: 'v2',
            schema: 'User',
            field: 'lastName',
            deprecatedAt: iso(Date.now() - 400 * day),
            sunsetAt: iso(Date.now() - day),
          },
          {
            version: 'v2',
            resource: 'User',
            field: 'firstName',
            deprecatedAt: iso(Date.now() - day),
            sunsetAt: iso(Date.now() + 200 * day),
          },
        ],
        parameterDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users',
            parameter: 'page',
            deprecatedAt: iso(Date.now() - day),
            sunsetAt: iso(Date.now() + 200 * day),
            replacement: 'cursor',
          },
        ],
      },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('refuses a field past its sunset in every spelling of fields=, before the upstream sees it', async () => {
    const before = (await python.received()).length;
    for (const spelling of ['fields=lastName', 'Fields=id,lastName', 'fields[]=lastName', 'x=1;fields=lastName']) {
      const res = await fetch(`${gateway.base}/api/v2/users?${spelling}`, { headers: auth });
      assert.equal(res.status, 400, spelling);
      assert.equal(((await res.json()) as { code: string }).code, 'ELEMENT_REMOVED', spelling);
    }
    assert.equal((await python.received()).length, before, 'none of them reached the upstream');
    const fine = await fetch(`${gateway.base}/api/v2/users?fields=id`, { headers: auth });
    assert.equal(fine.status, 200);
    assert.equal(fine.headers.get('deprecation'), null);
  });

  it('tells and counts a field and a parameter in each spelling, on the list and the single user', async () => {
    for (const target of [
      '/api/v2/users?fields=firstName',
      '/api/v2/users/1?fields=id,firstName',
      '/api/v2/users?Page=2',
      '/api/v2/users?page[]=2',
      '/api/v2/users?x=1;page=2',
    ]) {
      const res = await fetch(`${gateway.base}${target}`, { headers: auth });
      assert.equal(res.status, 200, target);
      assert.ok(res.headers.get('deprecation'), `${target} gets Deprecation`);
      assert.match(res.headers.get('link') ?? '', /rel="deprecation"; title="(User\.firstName|GET \/users\?page)"/);
    }
    let listed: Array<{ name: string; usage: { calls: number } }> = [];
    const count = (name: string) => listed.find((d) => d.name === name)?.usage.calls ?? 0;
    for (let i = 0; i < 40 && (count('User.firstName') < 2 || count('GET /users?page') < 3); i++) {
      await new Promise((r) => setTimeout(r, 250));
      const res = await fetch(`${gateway.base}/admin/v1/deprecations`, { headers: auth });
      listed = ((await res.json()) as { data: typeof listed }).data;
    }
    assert.equal(count('User.firstName'), 2);
    assert.equal(count('GET /users?page'), 3);
    assert.equal(count('User.lastName'), 0, 'a use refused past its sunset is not usage (docs/usage.md)');
  });
});
