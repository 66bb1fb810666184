import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const query = (name: string) => ({ name, in: 'query', required: false, schema: { type: 'string' } });

// The gateway judges what it can see of a request without reading its body: query parameters.
describe('gateway: a deprecated query parameter in front of a Python API', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
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
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
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
});
