import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineVersions } from './define-versions.ts';
import { enumValuesAdded, enumValuesRemoved, fieldAdded, fieldRemoved, schemaReplaced } from './instructions.ts';
import { isPlainObject, ref } from './schema-walk.ts';
import { defineVersionChange } from './version-change.ts';
import type { HeadDefinition } from './types.ts';

const head: HeadDefinition = {
  schemas: {
    User: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        email: { type: 'string' },
        status: { type: 'string', enum: ['on', 'off', 'paused'] },
      },
    },
    UserInput: { type: 'object', properties: { fullName: { type: 'string' }, email: { type: 'string' } } },
    UserList: { type: 'object', properties: { data: { type: 'array', items: ref('User') } } },
  },
  operations: [
    {
      id: 'list',
      method: 'GET',
      path: '/users',
      summary: 's',
      responses: { 200: { description: 'ok', schema: 'UserList' } },
    },
    {
      id: 'create',
      method: 'POST',
      path: '/users',
      summary: 's',
      body: 'UserInput',
      responses: { 201: { description: 'ok', schema: 'User' } },
    },
  ],
};

const v2 = defineVersionChange({
  description: 'email and paused',
  instructions: [
    fieldAdded('User', 'email'),
    fieldAdded('UserInput', 'email'),
    enumValuesAdded({ schema: 'User', field: 'status', values: ['paused'], mapDownTo: { paused: 'off' } }),
  ],
});
const v3 = defineVersionChange({
  description: 'paged lists; name becomes fullName',
  instructions: [
    schemaReplaced({ schema: 'UserList', previous: { type: 'array', items: ref('User') } }),
    fieldAdded('UserInput', 'fullName'),
    fieldRemoved({ schema: 'UserInput', field: 'name', definition: { type: 'string' } }),
  ],
  responses: { UserList: (body) => (isPlainObject(body) ? body.data : body) },
  requests: {
    UserInput: (body) => {
      if (!isPlainObject(body)) return body;
      const { name, ...rest } = body;
      return { ...rest, fullName: name };
    },
  },
});
const bundle = defineVersions({
  head,
  versions: [{ name: 'v1' }, { name: 'v2', changes: [v2] }, { name: 'v3', changes: [v3] }],
});
const [one, two, three] = bundle.versions as [typeof bundle.latest, typeof bundle.latest, typeof bundle.latest];

describe('migration plan', () => {
  const list = {
    data: [
      { id: 1, name: 'a', email: 'a@x', status: 'paused' },
      { id: 2, name: 'b', status: 'on' },
    ],
  };

  it('migrates a response down one step, bottom-up', () => {
    assert.deepEqual(
      bundle.migrations.responseDown({ schema: 'UserList', body: list, from: three, to: two }),
      list.data,
    );
  });

  it('migrates a response down several steps: list unwrapped, then items stripped and mapped', () => {
    assert.deepEqual(bundle.migrations.responseDown({ schema: 'UserList', body: list, from: three, to: one }), [
      { id: 1, name: 'a', status: 'off' },
      { id: 2, name: 'b', status: 'on' },
    ]);
  });

  it('leaves the input body untouched', () => {
    const copy = structuredClone(list);
    bundle.migrations.responseDown({ schema: 'UserList', body: list, from: three, to: one });
    assert.deepEqual(list, copy);
  });

  it('is the identity between a version and itself and for schemas nothing changed', () => {
    assert.equal(bundle.migrations.responseDown({ schema: 'UserList', body: list, from: three, to: three }), list);
    const user = { id: 1, name: 'x', status: 'on' };
    assert.deepEqual(bundle.migrations.responseDown({ schema: 'User', body: user, from: two, to: two }), user);
  });

  it('maps only the added enum values and keeps unknown ones as they are', () => {
    const body = { id: 1, name: 'x', status: 'weird' };
    assert.deepEqual(bundle.migrations.responseDown({ schema: 'User', body, from: two, to: one }), body);
  });

  it('passes bodies of an unexpected shape through unchanged', () => {
    for (const body of [null, 3, 'x', [], [null, 1]]) {
      assert.deepEqual(
        bundle.migrations.responseDown({ schema: 'UserList', body, from: three, to: one }),
        body,
        JSON.stringify(body),
      );
    }
  });

  it('migrates a request up through each change with the operation id', () => {
    const seen: string[] = [];
    const spy = defineVersions({
      head,
      versions: [
        { name: 'v1' },
        { name: 'v2', changes: [v2] },
        {
          name: 'v3',
          changes: [
            {
              ...v3,
              requests: {
                UserInput: (b, c) => {
                  seen.push(c.operationId);
                  return v3.requests!.UserInput!(b, c);
                },
              },
            },
          ],
        },
      ],
    });
    const up = spy.migrations.requestUp({
      schema: 'UserInput',
      body: { name: 'Ada' },
      from: spy.versions[0]!,
      to: spy.latest,
      operationId: 'create',
    });
    assert.deepEqual(up, { fullName: 'Ada' });
    assert.deepEqual(seen, ['create']);
    assert.deepEqual(
      spy.migrations.requestUp({ schema: 'UserInput', body: { fullName: 'Ada' }, from: spy.latest, to: spy.latest }),
      { fullName: 'Ada' },
    );
  });

  it('derives the older schemas the migrations target', () => {
    assert.equal(one.schemas.UserList!.type, 'array');
    assert.deepEqual(Object.keys(one.schemas.UserInput!.properties as object), ['name']);
    assert.deepEqual(Object.keys(two.schemas.UserInput!.properties as object).sort(), ['email', 'name']);
  });
});

describe('migration plan: migrations see their own version, the target shapes the result', () => {
  const orders: HeadDefinition = {
    schemas: {
      Order: {
        type: 'object',
        required: ['id', 'customer'],
        properties: {
          id: { type: 'integer' },
          customer: { type: 'string' },
          shipping: { type: 'string', enum: ['standard', 'express', 'pickup'] },
        },
      },
      OrderInput: {
        type: 'object',
        required: ['customer'],
        properties: {
          customer: { type: 'string' },
          shipping: { type: 'string', enum: ['standard', 'express', 'pickup'] },
          address: ref('Address'),
        },
      },
      Address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
      OrderList: { type: 'array', items: ref('Order') },
    },
    operations: [
      {
        id: 'list',
        method: 'GET',
        path: '/orders',
        summary: 's',
        responses: { 200: { description: 'ok', schema: 'OrderList' } },
      },
      {
        id: 'create',
        method: 'POST',
        path: '/orders',
        summary: 's',
        body: 'OrderInput',
        responses: { 201: { description: 'ok', schema: 'Order' } },
      },
    ],
  };
  const seen: unknown[] = [];
  const rename = defineVersionChange({
    description:
      '`customerName` becomes `customer`; `pickup` is new and `overnight` is gone; addresses take `city`, not `town`.',
    instructions: [
      fieldAdded('Order', 'customer'),
      fieldRemoved({ schema: 'Order', field: 'customerName', definition: { type: 'string' }, required: true }),
      fieldAdded('OrderInput', 'customer'),
      fieldRemoved({ schema: 'OrderInput', field: 'customerName', definition: { type: 'string' }, required: true }),
      fieldAdded('Address', 'city'),
      fieldRemoved({ schema: 'Address', field: 'town', definition: { type: 'string' }, required: true }),
      enumValuesAdded({ schema: 'Order', field: 'shipping', values: ['pickup'], mapDownTo: { pickup: 'standard' } }),
      enumValuesRemoved({
        schema: 'OrderInput',
        field: 'shipping',
        values: ['overnight'],
        mapUpTo: { overnight: 'express' },
      }),
    ],
    responses: {
      Order: (order) => {
        seen.push(order);
        return isPlainObject(order) ? { ...order, customerName: order.customer } : order;
      },
    },
    requests: {
      OrderInput: (input) => (isPlainObject(input) ? { ...input, customer: input.customerName } : input),
      Address: (address) => (isPlainObject(address) ? { ...address, city: address.town } : address),
    },
  });
  const bundle = defineVersions({ head: orders, versions: [{ name: 'v1' }, { name: 'v2', changes: [rename] }] });
  const [v1, v2] = bundle.versions as [typeof bundle.latest, typeof bundle.latest];

  it('gives a response migration the newer body, then drops what the older version lacks', () => {
    seen.length = 0;
    const body = [{ id: 1, customer: 'Ada', shipping: 'pickup' }];
    assert.deepEqual(bundle.migrations.responseDown({ schema: 'OrderList', body, from: v2, to: v1 }), [
      { id: 1, customerName: 'Ada', shipping: 'standard' },
    ]);
    assert.deepEqual(seen, [{ id: 1, customer: 'Ada', shipping: 'pickup' }]);
  });

  it('gives request migrations, nested ones too, the older body, then drops what the newer version removed', () => {
    const body = { customerName: 'Ada', shipping: 'overnight', address: { town: 'Paris' } };
    assert.deepEqual(
      bundle.migrations.requestUp({ schema: 'OrderInput', body, from: v1, to: v2, operationId: 'create' }),
      { customer: 'Ada', shipping: 'express', address: { city: 'Paris' } },
    );
    assert.deepEqual(body, { customerName: 'Ada', shipping: 'overnight', address: { town: 'Paris' } });
  });
});
