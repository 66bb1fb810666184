import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedGateway } from '../support/derived-gateway.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

const fixture = new URL('../fixtures/derived-chain/', import.meta.url).pathname;

// Cadwyn's tutorial grows an API this way: one address, then a list of them, then a rename.
describe('versionary gateway serves a chain v1 ← v2 ← v3 from a v3-only Python upstream, each step in turn', () => {
  const gateway = derivedGateway({
    fixture,
    files: ['upstream.py', 'openapi-v3.json', 'changes-v3.mjs', 'changes-v2.mjs'],
    versions: {
      v3: { upstream: 'UPSTREAM', openapi: './openapi-v3.json' },
      v2: { derivedFrom: 'v3', changes: './changes-v3.mjs' },
      v1: { derivedFrom: 'v2', changes: './changes-v2.mjs' },
    },
  });
  const headers = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };
  const read = async (version: string) => {
    const response = await fetch(`${gateway.base}/api/${version}/users/1`, { headers });
    assert.equal(response.status, 200, version);
    return response.json();
  };

  it('answers each version in its own shape, translated down step by step', async () => {
    const addresses = ["12 St James's Square", 'Ockham Park'];
    assert.deepEqual(await read('v3'), { id: 1, full_name: 'Ada Lovelace', addresses });
    assert.deepEqual(await read('v2'), { id: 1, name: 'Ada Lovelace', addresses });
    assert.deepEqual(await read('v1'), { id: 1, name: 'Ada Lovelace', address: "12 St James's Square" });
  });

  it('takes a v1 creation up both steps, and answers it back down both', async () => {
    const created = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Grace Hopper', address: 'Arlington' }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { id: 2, name: 'Grace Hopper', address: 'Arlington' });
    const sent = (await gateway.received()).at(-1)!;
    assert.equal(sent.target, '/api/v3/users');
    assert.deepEqual(JSON.parse(sent.body as string), { full_name: 'Grace Hopper', addresses: ['Arlington'] });
  });

  it('checks a v1 request in v1’s terms: v2’s and v3’s members are refused, never forwarded', async () => {
    const before = (await gateway.received()).length;
    for (const body of [
      { name: 'Grace', addresses: ['Arlington'] },
      { full_name: 'Grace', address: 'Arlington' },
      { name: 'Grace' },
    ]) {
      const refused = await fetch(`${gateway.base}/api/v1/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      assert.equal(refused.status, 400, JSON.stringify(body));
    }
    assert.equal((await gateway.received()).length, before);
  });

  it('documents each version with its own schemas', async () => {
    const schemaOf = async (version: string) => {
      const doc = (await (await fetch(`${gateway.base}/api/${version}/openapi.json`, { headers })).json()) as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      return Object.keys(doc.components.schemas.User!.properties).sort();
    };
    assert.deepEqual(await schemaOf('v1'), ['address', 'id', 'name']);
    assert.deepEqual(await schemaOf('v2'), ['addresses', 'id', 'name']);
  });
});
