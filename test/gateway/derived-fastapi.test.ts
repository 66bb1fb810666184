import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedFastapiGateway } from '../support/derived-fastapi.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

describe('versionary gateway serves v1 from an upstream named as FastAPI names it ({user_id}, Optional[Address])', () => {
  const { gateway, upstream } = derivedFastapiGateway();
  const headers = { authorization: `Bearer ${gatewayAdminKey}` };
  /** What the upstream has received so far. */
  const received = async () =>
    (await (await fetch(`${upstream.url}/_received`)).json()) as Array<{ method: string; target: string }>;

  it('routes GET /api/v1/users/{user_id} and translates it, v2-only members of the nullable address dropped', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users/1`, { headers });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { id: 1, name: 'Ada', address: { city: 'London' } });
    const empty = await fetch(`${gateway.base}/api/v1/users/2`, { headers });
    assert.deepEqual(await empty.json(), { id: 2, name: 'Alan', address: null });
    const v2 = await fetch(`${gateway.base}/api/v2/users/1`, { headers });
    assert.deepEqual(await v2.json(), {
      id: 1,
      name: 'Ada',
      email: 'ada@example.com',
      address: { city: 'London', country: 'UK' },
    });
    assert.ok((await received()).some((r) => r.target === '/api/v2/users/1'));
  });

  it('answers a 404 problem for an endpoint v2 added, and the upstream never sees it', async () => {
    const v2 = await fetch(`${gateway.base}/api/v2/users/1/emails`, { headers });
    assert.equal(v2.status, 200, 'the upstream serves it in v2');
    const before = (await received()).length;
    const response = await fetch(`${gateway.base}/api/v1/users/1/emails`, { headers });
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = (await response.json()) as { code: string; detail: string };
    assert.equal(problem.code, 'NOT_FOUND');
    assert.match(problem.detail, /v1 has no operation at \/api\/v1\/users\/1\/emails/);
    assert.equal((await received()).length, before, 'no call reached the upstream');
  });

  it('answers a 404 problem for a path neither document has, and a 405 for a method v1 lacks, forwarding neither', async () => {
    const before = (await received()).length;
    const nowhere = await fetch(`${gateway.base}/api/v1/nowhere/1`, { headers });
    assert.equal(nowhere.status, 404);
    assert.equal(((await nowhere.json()) as { code: string }).code, 'NOT_FOUND');
    const post = await fetch(`${gateway.base}/api/v1/users/1`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, PATCH, HEAD, OPTIONS');
    assert.equal(((await post.json()) as { code: string }).code, 'METHOD_NOT_ALLOWED');
    assert.equal((await received()).length, before, 'no call reached the upstream');
  });

  it('translates answers documented under 2XX and default, in +json media types', async () => {
    const address = await fetch(`${gateway.base}/api/v1/users/1/address`, { headers });
    assert.equal(address.status, 200);
    assert.match(address.headers.get('content-type') ?? '', /^application\/hal\+json/);
    assert.deepEqual(await address.json(), { city: 'London' });
    const profile = await fetch(`${gateway.base}/api/v1/users/1/profile`, { headers });
    assert.equal(profile.status, 200);
    assert.deepEqual(await profile.json(), { id: 1, name: 'Ada', address: { city: 'London' } });
  });

  it("serves v1's document without the added endpoint and with the older Address", async () => {
    const doc = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers })).json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    assert.deepEqual(Object.keys(doc.paths), [
      '/users',
      '/users/{user_id}',
      '/users/{user_id}/address',
      '/users/{user_id}/profile',
      '/nodes',
    ]);
    assert.deepEqual(Object.keys(doc.components.schemas.Address!.properties!), ['city']);
  });
});
