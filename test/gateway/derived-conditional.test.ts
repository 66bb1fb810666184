import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedFastapiGateway } from '../support/derived-fastapi.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

interface Received {
  method: string;
  target: string;
  if_match: string | null;
}

describe("a derived version's validators and links are its own: ETags of its bodies, If-Match honoured, instance in its paths", () => {
  const { gateway, upstream } = derivedFastapiGateway();
  const headers = { authorization: `Bearer ${gatewayAdminKey}` };
  const received = async () => (await (await fetch(`${upstream.url}/_received`)).json()) as Received[];
  const patch = (ifMatch: string, body: unknown) =>
    fetch(`${gateway.base}/api/v1/users/2`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': ifMatch },
      body: JSON.stringify(body),
    });

  it('tags a write by its v1 body, honours If-Match with the tag v1 gave, and refuses a stale one with a 412 of its own', async () => {
    const read = await fetch(`${gateway.base}/api/v1/users/2`, { headers });
    const first = read.headers.get('etag');
    assert.match(first ?? '', /^"c-/, "v1's tag is the gateway's, of v1's body");
    const written = await patch(first!, { name: 'Alan T' });
    assert.equal(written.status, 200);
    assert.deepEqual(await written.json(), { id: 2, name: 'Alan T', address: null });
    const second = written.headers.get('etag');
    assert.match(second ?? '', /^"c-/);
    assert.notEqual(second, first);
    const again = await fetch(`${gateway.base}/api/v1/users/2`, { headers });
    assert.equal(again.headers.get('etag'), second, 'the write and the next read give one tag');
    const up = (await received()).filter((r) => r.method === 'PATCH');
    assert.equal(up.length, 1);
    assert.match(
      up[0]!.if_match ?? '',
      /^"v2-/,
      'the upstream is asked on its own tag, so a change between is refused',
    );

    const stale = await patch(first!, { name: 'Alan' });
    assert.equal(stale.status, 412);
    const problem = (await stale.json()) as { code: string; instance: string };
    assert.equal(problem.code, 'PRECONDITION_FAILED');
    assert.equal(problem.instance, '/api/v1/users/2');
    assert.equal((await received()).filter((r) => r.method === 'PATCH').length, 1, 'the stale write never went up');
  });

  it("answers a HEAD with the length and tag of v1's body", async () => {
    const get = await fetch(`${gateway.base}/api/v1/users/1`, { headers });
    const body = await get.text();
    const head = await fetch(`${gateway.base}/api/v1/users/1`, { method: 'HEAD', headers });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), get.headers.get('etag'));
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(body)));
  });

  it("judges a GET's If-Match on v1's tag too", async () => {
    const tag = (await fetch(`${gateway.base}/api/v1/users/1`, { headers })).headers.get('etag')!;
    const held = await fetch(`${gateway.base}/api/v1/users/1`, { headers: { ...headers, 'if-match': tag } });
    assert.equal(held.status, 200);
    const failed = await fetch(`${gateway.base}/api/v1/users/1`, { headers: { ...headers, 'if-match': '"c-other"' } });
    assert.equal(failed.status, 412);
  });

  it("names v1's path as the instance of the upstream's problem", async () => {
    const response = await fetch(`${gateway.base}/api/v1/users/99`, { headers });
    assert.equal(response.status, 404);
    const problem = (await response.json()) as { detail: string; instance: string };
    assert.equal(problem.detail, 'No such user.');
    assert.equal(problem.instance, '/api/v1/users/99');
  });
});
