import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedGateway, derivedStartFailure, v1FromV2 } from '../support/derived-gateway.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

const fixture = new URL('../fixtures/derived-endpoints/', import.meta.url).pathname;

describe('versionary gateway serves v1 endpoints moved, removed, re-statused and renamed by v2 (changes as data)', () => {
  const gateway = derivedGateway({
    fixture,
    files: ['upstream.py', 'openapi-v2.json', 'changes-v2.json'],
    versions: v1FromV2(),
  });
  const headers = { authorization: `Bearer ${gatewayAdminKey}` };
  const last = async () => (await gateway.received()).at(-1)!;

  it('serves a moved endpoint at its previous path, forwarded to the new one', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users/2`, { headers });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { id: 2, name: 'Alan' });
    assert.equal((await last()).target, '/api/v2/people/2');
    const missing = await fetch(`${gateway.base}/api/v1/users/77`, { headers });
    assert.equal(missing.status, 404);
    // The problem's instance names the call v1 made, not v2's path.
    assert.equal(((await missing.json()) as { instance?: string }).instance, '/api/v1/users/77');
  });

  it('serves a moved method (v1 DELETE is v2 POST …/archive), and v1 knows nothing of v2’s path', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users/3`, { method: 'DELETE', headers });
    assert.equal(response.status, 204);
    const call = await last();
    assert.deepEqual([call.method, call.target], ['POST', '/api/v2/people/3/archive']);
    const before = (await gateway.received()).length;
    const moved = await fetch(`${gateway.base}/api/v1/people/3`, { headers });
    assert.equal(moved.status, 404);
    assert.equal((await gateway.received()).length, before, 'never forwarded');
  });

  it('answers 405 for a method v2 added on a path v1 has, and never forwards it', async () => {
    const before = (await gateway.received()).length;
    const patch = await fetch(`${gateway.base}/api/v1/users/1`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada L.' }),
    });
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.get('allow'), 'GET, DELETE, HEAD, OPTIONS');
    assert.equal((await gateway.received()).length, before);
  });

  it('serves an endpoint v2 removed from the path that still serves it', async () => {
    const response = await fetch(`${gateway.base}/api/v1/accounts/1`, { headers });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { id: 1, name: 'Ada' });
    assert.equal((await last()).target, '/api/v2/people/1');
  });

  it('answers 410 for an endpoint v2 removed with nothing serving it, never forwarded', async () => {
    const before = (await gateway.received()).length;
    const response = await fetch(`${gateway.base}/api/v1/users/1/avatar`, { headers });
    assert.equal(response.status, 410);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = (await response.json()) as { code: string; detail: string };
    assert.equal(problem.code, 'ENDPOINT_REMOVED');
    assert.match(problem.detail, /^GET \/api\/v1\/users\/\{\w+\}\/avatar was removed in v2; v1 answers it 410\.$/);
    assert.equal((await gateway.received()).length, before);
    // The decision table's row refuses it, so every data plane does, with the same problem.
    const table = (await (await fetch(`${gateway.base}/admin/v1/decision-table`, { headers })).json()) as {
      routes: Record<
        string,
        Array<{ method: string; template: string; row: { segments: Array<{ problem?: string }> } }>
      >;
      problems: Record<string, { status: number; body: { code: string } }>;
    };
    const row = table.routes.v1!.find((r) => r.method === 'GET' && r.template.endsWith('/avatar'))!;
    const refusal = table.problems[row.row.segments[0]!.problem!]!;
    assert.deepEqual([refusal.status, refusal.body.code], [410, 'ENDPOINT_REMOVED']);
  });

  it('answers v1 its previous status', async () => {
    const created = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Barbara' }),
    });
    assert.equal(created.status, 200);
    assert.deepEqual(await created.json(), { id: 9, name: 'Barbara' });
    const v2 = await fetch(`${gateway.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Barbara' }),
    });
    assert.equal(v2.status, 201);
  });

  it('renames the query parameter and the headers both ways', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users?limit=2`, {
      headers: { ...headers, 'x-client-tag': 'abc' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Alan' },
    ]);
    assert.equal(response.headers.get('x-count'), '3');
    assert.equal(response.headers.get('x-total-count'), null);
    const call = await last();
    assert.equal(call.target, '/api/v2/users?page_size=2');
    assert.equal(call.trace_tag, 'abc');
    assert.equal(call.client_tag, null);
    const v2 = await fetch(`${gateway.base}/api/v2/users?page_size=1`, { headers });
    assert.equal(v2.headers.get('x-total-count'), '3');
  });

  it('documents v1 in its own terms: old paths and methods, the removed endpoints, statuses, names', async () => {
    const doc = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers })).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/accounts/{user_id}',
      '/users',
      '/users/{user_id}',
      '/users/{user_id}/avatar',
    ]);
    assert.deepEqual(Object.keys(doc.paths['/users/{user_id}']!).sort(), ['delete', 'get']);
    const read = doc.paths['/users/{user_id}']!.get!;
    assert.equal(read.operationId, 'read_person_api_v2_people__user_id__get');
    assert.deepEqual(
      (read.parameters as Array<{ name: string }>).map((p) => p.name),
      ['user_id'],
      'the path’s own parameter moved with it',
    );
    assert.equal(doc.paths['/accounts/{user_id}']!.get!.operationId, 'get_accounts_user_id');
    assert.deepEqual(Object.keys(doc.paths['/users/{user_id}/avatar']!.get!.responses as object), ['410']);
    assert.deepEqual(Object.keys(doc.paths['/users']!.post!.responses as object), ['200']);
    const list = doc.paths['/users']!.get!;
    assert.deepEqual(
      (list.parameters as Array<{ name: string }>).map((p) => p.name),
      ['limit', 'X-Client-Tag'],
    );
    const ok = (list.responses as Record<string, { headers: object }>)['200']!;
    assert.deepEqual(Object.keys(ok.headers), ['X-Count']);
  });
});

describe('v1 endpoints served by a v2 route that requires a body (removed with upstreamPath, moved)', () => {
  const instructions = [
    { op: 'endpoint-removed', method: 'PATCH', path: '/accounts/{user_id}', upstreamPath: '/people/{user_id}' },
    {
      op: 'endpoint-removed',
      method: 'PUT',
      path: '/members/{user_id}',
      upstreamPath: '/people/{user_id}',
      upstreamMethod: 'PATCH',
    },
    { op: 'endpoint-moved', method: 'PATCH', path: '/people/{user_id}', previousPath: '/users/{user_id}' },
  ];
  const gateway = derivedGateway({
    fixture,
    files: ['upstream.py', 'openapi-v2.json'],
    written: { 'changes-v2.json': [{ version: 'v2', description: 'Renames go to /people.', instructions }] },
    versions: v1FromV2(),
  });
  const headers = { authorization: `Bearer ${gatewayAdminKey}` };
  const calls: Array<[string, string]> = [
    ['PATCH', '/users/{user_id}'],
    ['PATCH', '/accounts/{user_id}'],
    ['PUT', '/members/{user_id}'],
  ];

  it('refuses each call without its body, or with an empty one, with the 400 problem, never forwarding it', async () => {
    const before = (await gateway.received()).length;
    for (const [method, template] of calls)
      for (const body of [undefined, '']) {
        const target = template.replace('{user_id}', '1');
        const sent = body === undefined ? headers : { ...headers, 'content-type': 'application/json' };
        const response = await fetch(`${gateway.base}/api/v1${target}`, { method, headers: sent, body });
        const what = `${method} ${target} with ${body === undefined ? 'no body' : 'an empty body'}`;
        assert.equal(response.status, 400, what);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
        const problem = (await response.json()) as Record<string, unknown>;
        assert.equal(problem.code, 'VALIDATION_FAILED', what);
        assert.equal(
          problem.detail,
          `v1's ${method} ${template} requires a request body: send a UserInput as application/json.`,
          what,
        );
        assert.deepEqual(problem.errors, [{ pointer: '/body', detail: 'is required' }], what);
      }
    assert.equal((await gateway.received()).length, before, 'no call without its body reached the upstream');
  });

  it('forwards each call with its body to the v2 route', async () => {
    for (const [method, template] of calls) {
      const response = await fetch(`${gateway.base}/api/v1${template.replace('{user_id}', '2')}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Alan ${method}` }),
      });
      assert.equal(response.status, 200, `${method} ${template}`);
      assert.deepEqual(await response.json(), { id: 2, name: `Alan ${method}` });
      const call = (await gateway.received()).at(-1)!;
      assert.deepEqual([call.method, call.target], ['PATCH', '/api/v2/people/2']);
    }
  });

  it('documents each one’s body as required', async () => {
    const doc = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers })).json()) as {
      paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
    };
    for (const [method, template] of calls)
      assert.equal(doc.paths[template]?.[method.toLowerCase()]?.requestBody?.required, true, `${method} ${template}`);
  });
});

describe('a change file naming routes, statuses or parameters v2 lacks', () => {
  it('stops the start, naming every one at once with its place', () => {
    const instructions = [
      { op: 'endpoint-moved', method: 'GET', path: '/persons/{user_id}', previousPath: '/users/{user_id}' },
      { op: 'endpoint-removed', method: 'GET', path: '/accounts/{user_id}', upstreamPath: '/members/{user_id}' },
      { op: 'status-changed', method: 'POST', path: '/users', status: 200, previousStatus: 202 },
      { op: 'query-renamed', method: 'GET', path: '/users', name: 'size', previousName: 'limit' },
      { op: 'header-renamed', in: 'response', method: 'DELETE', path: '/users', name: 'X-A', previousName: 'X-B' },
    ];
    const { status, output } = derivedStartFailure({
      fixture,
      files: ['openapi-v2.json'],
      written: { 'changes-v2.json': [{ version: 'v2', description: 'd', instructions }] },
      versions: v1FromV2(),
    });
    assert.equal(status, 2, output);
    for (const expected of [
      '[0].instructions[0] (endpoint-moved GET /persons/{user_id}): endpoint-moved names GET /persons/{user_id}, which the version does not route',
      '[0].instructions[1] (endpoint-removed GET /accounts/{user_id}): endpoint-removed upstreamPath names GET /members/{user_id}, which the version does not route',
      '[0].instructions[2] (status-changed POST /users): status-changed names status 200 of POST /users, which it does not document',
      '[0].instructions[3] (query-renamed GET /users): query-renamed names size of GET /users, which it does not take',
      '[0].instructions[4] (header-renamed DELETE /users): header-renamed names DELETE /users, which the version does not route',
    ])
      assert.ok(output.includes(expected), `names ${expected}:\n${output}`);
  });
});

describe('a change module’s migration told the call (examples/gateway-derived/changes-v2.mjs)', () => {
  const gateway = derivedGateway({
    fixture: new URL('../../examples/gateway-derived/', import.meta.url).pathname,
    files: ['openapi-v2.json', 'changes-v2.mjs'],
    versions: v1FromV2('./changes-v2.mjs'),
  });

  it('reads a v1 request header and the method from ctx, and the upstream gets v2’s body', async () => {
    const created = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gatewayAdminKey}`,
        'content-type': 'application/json',
        'x-user-email': 'grace@example.com',
      },
      body: JSON.stringify({ name: 'Grace Hopper' }),
    });
    assert.equal(created.status, 201);
    const answer = (await created.json()) as Record<string, unknown>;
    assert.equal(answer.email, undefined, 'v1 answers carry no email');
    const sent = (await gateway.received()).at(-1)!;
    assert.deepEqual(JSON.parse(sent.body as string), { name: 'Grace Hopper', email: 'grace@example.com' });
  });
});
