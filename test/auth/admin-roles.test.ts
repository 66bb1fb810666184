import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { createApiKey } from '../../src/loop/access/auth/api-keys.ts';
import type { Role } from '../../src/kernel/ports/principal.ts';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, consumerHeaders, createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';

const secret = 'a-test-secret-that-is-32-chars-long!!';

/** Every route and method the app serves, read from Fastify's own route tree. */
function servedRoutes(t: TestApp): Array<{ method: string; url: string }> {
  const stack: string[] = [];
  const routes: Array<{ method: string; url: string }> = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([\s│├└─]*?)(\S[^ ]*) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const parent = stack[depth - 1] ?? '';
    const url =
      depth === 0 ? match[2]! : `${parent}${parent.endsWith('/') || match[2]!.startsWith('/') ? '' : '/'}${match[2]}`;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of match[3]!.split(', ')) routes.push({ method, url });
  }
  return routes;
}

/** A request body that passes each admin route's validation, so only the role can refuse it. */
const validBody: Record<string, object> = {
  'POST /admin/v1/api-keys': { name: 'sneaky', roles: ['admin'] },
  'PUT /admin/v1/versions/:name/deprecation': { noticeMonths: 9 },
  'POST /admin/v1/deprecations': { version: 'v2', method: 'GET', path: '/users/{id}', noticeMonths: 6 },
  'POST /admin/v1/clients': { name: 'sneaky', contacts: ['mallory@evil.test'] },
  'PATCH /admin/v1/clients/:id': { name: 'renamed', contacts: [] },
  // v1 is deprecated in the reference service: a window within its notice period.
  'POST /admin/v1/brownouts': { version: 'v1', startsAt: '2026-01-16T12:00:00Z', endsAt: '2026-01-16T13:00:00Z' },
  'POST /admin/v1/approvals': { fingerprint: '0123456789abcdef', reason: 'a break nobody agreed to' },
  'POST /admin/v1/brownout-schedules': { version: 'v1', target: { all: true } },
  'POST /admin/v1/extended-access-grants': { clientId: 'cl_x', version: 'v1', until: '2026-09-01', reason: 'sneaky' },
  'POST /admin/v1/extended-access-requests/:id/decisions': { decision: 'declined', reason: 'sneaky' },
  'POST /admin/v1/exemptions': { clientId: 'cl_x', version: 'v1', until: '2026-09-01', reason: 'sneaky' },
  'POST /admin/v1/exemption-requests/:id/decisions': { decision: 'declined', reason: 'sneaky' },
};

describe('the management API with credentials that lack the admin role', () => {
  it('answers 403 on every admin route and method, and changes nothing', async () => {
    const t = await createTestApp({ env: { VERSIONARY_JWT_SECRET: secret } });
    const admin = (await createApiKey({ store: t.storage.apiKeys, name: 'victim', roles: ['admin'], now: testEpoch }))
      .record;
    const keyOf = async (roles: Role[]) =>
      `Bearer ${(await createApiKey({ store: t.storage.apiKeys, name: roles.join('+'), roles, now: testEpoch })).key}`;
    const seconds = Math.floor(testEpoch / 1000);
    const jwt = await new SignJWT({ sub: 'svc', scope: 'read write' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 600)
      .sign(new TextEncoder().encode(secret));
    const callers: Record<string, string> = {
      'read key': await keyOf(['read']),
      'write key': await keyOf(['write']),
      'read+write key': consumerHeaders.authorization,
      'read+write JWT': `Bearer ${jwt}`,
    };
    // The MCP endpoint is the one route under /admin that a key without the admin role reaches (with
    // read): its tools answer for the key's own client and refuse the rest (test/mcp). Without read, 403.
    const mcp = servedRoutes(t).filter((r) => r.url === '/admin/mcp');
    assert.deepEqual(mcp.map((r) => r.method).sort(), ['DELETE', 'GET', 'HEAD', 'POST']);
    const writeOnly = await t.app.inject({
      method: 'POST',
      url: '/admin/mcp',
      headers: { authorization: callers['write key']!, accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    assertProblem(writeOnly, { status: 403, code: 'FORBIDDEN' });
    const admins = servedRoutes(t).filter((r) => r.url.startsWith('/admin/') && r.url !== '/admin/mcp');
    assert.deepEqual(
      [...new Set(admins.map((r) => `${r.method} ${r.url}`))].sort(),
      [
        'DELETE /admin/v1/api-keys/:id',
        'GET /admin/v1/api-keys',
        'GET /admin/v1/versions',
        'GET /admin/v1/versions/:name',
        'GET /admin/v1/versions/:name/calls',
        'HEAD /admin/v1/api-keys',
        'HEAD /admin/v1/versions',
        'HEAD /admin/v1/versions/:name',
        'HEAD /admin/v1/versions/:name/calls',
        'POST /admin/v1/api-keys',
        'POST /admin/v1/deprecations',
        'GET /admin/v1/deprecations',
        'HEAD /admin/v1/deprecations',
        'GET /admin/v1/decision-table',
        'HEAD /admin/v1/decision-table',
        'PUT /admin/v1/versions/:name/deprecation',
        'GET /admin/v1/openapi.json',
        'HEAD /admin/v1/openapi.json',
        'POST /admin/v1/clients',
        'GET /admin/v1/clients',
        'HEAD /admin/v1/clients',
        'GET /admin/v1/clients/:id',
        'HEAD /admin/v1/clients/:id',
        'PATCH /admin/v1/clients/:id',
        'DELETE /admin/v1/clients/:id',
        'GET /admin/v1/usage/clients',
        'HEAD /admin/v1/usage/clients',
        'GET /admin/v1/usage/endpoints',
        'HEAD /admin/v1/usage/endpoints',
        'GET /admin/v1/usage/days',
        'HEAD /admin/v1/usage/days',
        'GET /admin/v1/usage/operations',
        'HEAD /admin/v1/usage/operations',
        'POST /admin/v1/notices/run',
        'GET /admin/v1/notices',
        'HEAD /admin/v1/notices',
        'POST /admin/v1/brownouts',
        'GET /admin/v1/brownouts',
        'HEAD /admin/v1/brownouts',
        'DELETE /admin/v1/brownouts/:id',
        'POST /admin/v1/approvals',
        'GET /admin/v1/approvals',
        'HEAD /admin/v1/approvals',
        'DELETE /admin/v1/approvals/:id',
        'POST /admin/v1/brownout-schedules',
        'POST /admin/v1/extended-access-grants',
        'GET /admin/v1/extended-access-grants',
        'HEAD /admin/v1/extended-access-grants',
        'DELETE /admin/v1/extended-access-grants/:id',
        'GET /admin/v1/extended-access-requests',
        'HEAD /admin/v1/extended-access-requests',
        'POST /admin/v1/extended-access-requests/:id/decisions',
        // The first release's paths, kept as aliases.
        'POST /admin/v1/exemptions',
        'GET /admin/v1/exemptions',
        'HEAD /admin/v1/exemptions',
        'DELETE /admin/v1/exemptions/:id',
        'GET /admin/v1/exemption-requests',
        'HEAD /admin/v1/exemption-requests',
        'POST /admin/v1/exemption-requests/:id/decisions',
      ].sort(),
      'every admin route is covered below; a new one must join this list',
    );
    // A client and a brownout for the routes that change or delete one to aim at.
    const client = (
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/clients',
        headers: adminHeaders,
        payload: { name: 'victim client', contacts: ['ops@victim.test'] },
      })
    ).json() as { id: string };
    const brownout = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/brownouts',
      headers: adminHeaders,
      payload: validBody['POST /admin/v1/brownouts'],
    });
    assert.equal(brownout.statusCode, 201, brownout.body);
    const brownoutId = (brownout.json() as { id: string }).id;
    const approval = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/approvals',
      headers: adminHeaders,
      payload: { fingerprint: 'fedcba9876543210', reason: 'Acme agreed' },
    });
    assert.equal(approval.statusCode, 201, approval.body);
    const approvalId = (approval.json() as { id: string }).id;
    const approvalsBefore = JSON.stringify(await t.storage.approvals.list({ now: testEpoch, includeRevoked: true }));
    const keysBefore = JSON.stringify(await t.storage.apiKeys.list());
    const schedulesBefore = JSON.stringify(await t.storage.lifecycle.listSchedules());
    const clientsBefore = JSON.stringify(await t.storage.clients.list({ limit: 100 }));
    const brownoutsBefore = JSON.stringify(await t.storage.notices.listBrownouts());
    const noticesBefore = JSON.stringify(await t.storage.notices.list({ limit: 500, afterId: 0 }));
    for (const route of admins) {
      const ids: Record<string, string> = { clients: client.id, brownouts: brownoutId, approvals: approvalId };
      const id = ids[route.url.split('/')[3]!] ?? admin.id;
      const url = route.url.replace(':id', id).replace(':name', 'v1');
      const payload = validBody[`${route.method} ${route.url}`];
      for (const [who, authorization] of Object.entries(callers)) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization },
          ...(payload ? { payload } : {}),
        });
        const label = `${route.method} ${url} with a ${who}`;
        if (route.method === 'HEAD') {
          assert.equal(res.statusCode, 403, label);
          continue;
        }
        const problem = assertProblem(res, { status: 403, code: 'FORBIDDEN' });
        assert.equal(problem.requiredRole, 'admin', label);
      }
      const withAdmin = await t.app.inject({ method: 'GET', url: '/admin/v1/versions', headers: adminHeaders });
      assert.equal(withAdmin.statusCode, 200, 'the admin key still works');
    }
    assert.equal(JSON.stringify(await t.storage.apiKeys.list()), keysBefore, 'no key created or revoked');
    assert.equal(JSON.stringify(await t.storage.lifecycle.listSchedules()), schedulesBefore, 'no schedule changed');
    assert.deepEqual(await t.storage.lifecycle.listEndpointDeprecations(), [], 'no endpoint deprecated');
    assert.equal(
      JSON.stringify(await t.storage.clients.list({ limit: 100 })),
      clientsBefore,
      'no client created, changed or deleted',
    );
    assert.equal(
      JSON.stringify(await t.storage.notices.listBrownouts()),
      brownoutsBefore,
      'no brownout planned or cancelled',
    );
    assert.equal(
      JSON.stringify(await t.storage.notices.list({ limit: 500, afterId: 0 })),
      noticesBefore,
      'no notice planned',
    );
    assert.equal(
      JSON.stringify(await t.storage.approvals.list({ now: testEpoch, includeRevoked: true })),
      approvalsBefore,
      'no approval recorded or revoked',
    );
    assert.deepEqual(await t.storage.extendedAccess.list({ includeRevoked: true }), [], 'no grant granted');
    await t.close();
  });
});
