import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { derivedGateway, derivedStartFailure, v1FromV2 } from '../support/derived-gateway.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

const fixture = new URL('../fixtures/derived-vocabulary/', import.meta.url).pathname;
const headers = { authorization: `Bearer ${gatewayAdminKey}` };

describe('versionary gateway serves v1 from a change file written as data (rename, removal with a value, enum by reference, schema rename, moved endpoint)', () => {
  const gateway = derivedGateway({ fixture, files: ['openapi-v2.json', 'changes-v2.json'], versions: v1FromV2() });
  const received = async () =>
    (await gateway.received()) as Array<{
      method: string;
      target: string;
      body: string | null;
    }>;

  it('answers GET v1 in v1 terms: the previous name, the default, the value from the pointer, the enum value mapped', async () => {
    const one = await fetch(`${gateway.base}/api/v1/users/1`, { headers });
    assert.equal(one.status, 200);
    assert.deepEqual(await one.json(), {
      id: 1,
      fullName: 'Ada',
      status: 'inactive',
      address: { city: 'London', country: 'UK' },
      nickname: '',
      city: 'London',
    });
    const list = await fetch(`${gateway.base}/api/v1/users`, { headers });
    assert.deepEqual(await list.json(), [
      {
        id: 1,
        fullName: 'Ada',
        status: 'inactive',
        address: { city: 'London', country: 'UK' },
        nickname: '',
        city: 'London',
      },
      { id: 2, fullName: 'Alan', status: 'active', address: null, nickname: '' },
    ]);
    const v2 = await fetch(`${gateway.base}/api/v2/users/1`, { headers });
    assert.deepEqual(await v2.json(), {
      id: 1,
      name: 'Ada',
      status: 'pending',
      address: { city: 'London', country: 'UK' },
    });
  });

  it('takes POST v1 with the previous name up under the newer one, the removed field dropped', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ fullName: 'Grace', nickname: 'G', status: 'active' }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), {
      id: 9,
      fullName: 'Grace',
      status: 'active',
      address: null,
      nickname: '',
    });
    const posted = (await received()).filter((r) => r.method === 'POST').at(-1)!;
    assert.deepEqual(JSON.parse(posted.body!), { name: 'Grace', status: 'active' });
  });

  it("refuses, in v1's terms, a v1 POST with v2's name or v2's enum value, and the upstream never sees it", async () => {
    const before = (await received()).length;
    for (const body of [{ name: 'Grace' }, { fullName: 'Grace', status: 'pending' }]) {
      const response = await fetch(`${gateway.base}/api/v1/users`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 400, JSON.stringify(body));
    }
    assert.equal((await received()).length, before);
  });

  it('serves the moved endpoint at its previous path only, in v1 terms, forwarded to the newer path', async () => {
    const moved = await fetch(`${gateway.base}/api/v1/members/1`, { headers });
    assert.equal(moved.status, 200);
    assert.deepEqual(await moved.json(), {
      id: 1,
      fullName: 'Ada',
      status: 'inactive',
      address: { city: 'London', country: 'UK' },
      nickname: '',
      city: 'London',
    });
    assert.equal((await received()).at(-1)?.target, '/api/v2/people/1');
    const before = (await received()).length;
    const newer = await fetch(`${gateway.base}/api/v1/people/1`, { headers });
    assert.equal(newer.status, 404, 'v1 has no /people/{user_id}');
    assert.equal((await newer.json()).status, 404);
    assert.equal((await received()).length, before, 'never forwarded');
  });

  it("serves v1's document with v1's names: fields, the enum, and the component renamed in every reference", async () => {
    const doc = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers })).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; enum?: string[] }> };
    };
    const { schemas } = doc.components;
    assert.deepEqual(Object.keys(schemas.User!.properties!), [
      'id',
      'fullName',
      'status',
      'address',
      'nickname',
      'city',
    ]);
    assert.deepEqual(schemas.Status!.enum, ['active', 'inactive']);
    assert.ok(schemas.Location, 'Address is Location in v1');
    assert.equal(schemas.Address, undefined);
    assert.doesNotMatch(JSON.stringify(doc), /#\/components\/schemas\/Address/);
    const paths = Object.keys((doc as unknown as { paths: Record<string, unknown> }).paths);
    assert.ok(paths.includes('/members/{user_id}') && !paths.includes('/people/{user_id}'), paths.join(', '));
  });
});

describe('a change file naming what the newer document lacks', () => {
  it('stops the start, exit 2, naming the wrong pointer and the rename of a missing field with their places', () => {
    const changes = JSON.parse(readFileSync(join(fixture, 'changes-v2.json'), 'utf8')) as Array<{
      instructions: Array<Record<string, unknown>>;
    }>;
    changes[0]!.instructions[3]!.from = '/adress/city';
    const renamed = changes[0]!.instructions.push({
      op: 'field-renamed',
      schema: 'User',
      field: 'surname',
      previousName: 'lastName',
    });
    const { status, output } = derivedStartFailure({
      fixture,
      files: ['openapi-v2.json'],
      written: { 'changes-v2.json': changes },
      versions: v1FromV2(),
    });
    assert.equal(status, 2, output);
    for (const expected of [
      'changes-v2.json[0].instructions[3] (field-removed User.city): field-removed from /adress/city names /adress, which User does not have',
      `changes-v2.json[0].instructions[${renamed - 1}] (field-renamed User.surname): field-renamed names User.surname, which the version does not have`,
    ])
      assert.ok(output.includes(expected), `names ${expected}:\n${output}`);
  });
});
