import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isVersionaryError } from '../errors/index.ts';
import { defineVersions } from './define-versions.ts';
import { enumValuesAdded, enumValuesRemoved, fieldAdded, fieldRemoved } from './instructions.ts';
import { isPlainObject, ref } from './schema-walk.ts';
import { defineVersionChange, type VersionChange } from './version-change.ts';
import type { HeadDefinition } from './types.ts';

const head: HeadDefinition = {
  schemas: {
    Order: {
      type: 'object',
      required: ['id', 'customer'],
      properties: {
        id: { type: 'integer' },
        customer: { type: 'string' },
        shipping: { type: 'string', enum: ['standard', 'pickup'] },
      },
    },
    OrderInput: {
      type: 'object',
      required: ['customer'],
      properties: { customer: { type: 'string' }, shipping: { type: 'string', enum: ['standard', 'pickup'] } },
    },
    OrderList: { type: 'object', properties: { data: { type: 'array', items: ref('Order') } } },
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

const problemsOf = (change: Omit<VersionChange, 'description'>): string[] => {
  try {
    defineVersions({
      head,
      versions: [{ name: 'v1' }, { name: 'v2', changes: [defineVersionChange({ description: 'd', ...change })] }],
    });
    return [];
  } catch (error) {
    assert.ok(isVersionaryError(error) && error.code === 'INVALID_DEFINITION', String(error));
    return error.errors!.map((e) => e.detail);
  }
};

const renamed = [
  fieldAdded('Order', 'customer'),
  fieldRemoved({ schema: 'Order', field: 'customerName', definition: { type: 'string' }, required: true }),
  fieldAdded('OrderInput', 'customer'),
  fieldRemoved({ schema: 'OrderInput', field: 'customerName', definition: { type: 'string' }, required: true }),
];
const toOlder = (o: unknown) => (isPlainObject(o) ? { ...o, customerName: o.customer } : o);
const toNewer = (o: unknown) => (isPlainObject(o) ? { ...o, customer: o.customerName } : o);

describe('checkProducible: declarations that cannot work fail at definition', () => {
  it('accepts a rename with both migrations', () => {
    assert.deepEqual(
      problemsOf({ instructions: renamed, responses: { Order: toOlder }, requests: { OrderInput: toNewer } }),
      [],
    );
  });

  it('counts a migration on a containing schema for what it contains, and only there', () => {
    const list = (body: unknown) =>
      isPlainObject(body) && Array.isArray(body.data) ? { data: body.data.map(toOlder) } : body;
    const problems = problemsOf({ instructions: renamed.slice(0, 2), responses: { OrderList: list } });
    // The list's migration covers its items; the single order of POST /orders is still unproduced.
    assert.deepEqual(problems, [
      'v2: v1 responses require Order.customerName, which v2 does not have and no response migration produces: declare responses.Order to set it from the v2 body (for a rename, copy the new field into it)',
    ]);
  });

  it('refuses a rename without a response migration, naming the field nothing produces', () => {
    const problems = problemsOf({ instructions: renamed, requests: { OrderInput: toNewer } });
    assert.ok(
      problems.some((p) =>
        /^v2: v1 responses require Order\.customerName, which v2 does not have and no response migration produces: declare responses\.Order/.test(
          p,
        ),
      ),
      problems.join('\n'),
    );
  });

  it('refuses a rename without a request migration, naming the field older requests lack', () => {
    const problems = problemsOf({ instructions: renamed, responses: { Order: toOlder } });
    assert.ok(
      problems.some((p) =>
        /^v2: v2 requests require OrderInput\.customer, which v1 requests do not have .* declare requests\.OrderInput/.test(
          p,
        ),
      ),
      problems.join('\n'),
    );
  });

  it('tells a missing request migration once, naming the field, at the instruction that needs it', () => {
    try {
      defineVersions({
        head,
        versions: [
          { name: 'v1' },
          {
            name: 'v2',
            changes: [
              defineVersionChange({ description: 'd', instructions: [fieldAdded('Order', 'customer')] }),
              defineVersionChange({ description: 'e', instructions: renamed.slice(2), responses: { Order: toOlder } }),
            ],
          },
        ],
      });
      assert.fail('refused');
    } catch (error) {
      assert.ok(isVersionaryError(error), String(error));
      // The removed request field needs requests.OrderInput: one problem, not that and its twin in other words.
      assert.deepEqual(error.errors, [
        {
          pointer: '/versions/1/changes/1/instructions/1',
          detail:
            'v2: v2 requests require OrderInput.customer, which v1 requests do not have and no request migration produces: declare requests.OrderInput to set it from the v1 body, or make it optional',
        },
      ]);
    }
  });

  it('places an instruction that names nothing at its change and index', () => {
    assert.throws(
      () =>
        defineVersions({
          head,
          versions: [
            { name: 'v1' },
            {
              name: 'v2',
              changes: [defineVersionChange({ description: 'd', instructions: [fieldAdded('Order', 'x')] })],
            },
          ],
        }),
      (error: unknown) =>
        isVersionaryError(error) &&
        error.errors?.[0]?.pointer === '/versions/1/changes/0/instructions/0' &&
        /field-added names Order\.x/.test(error.errors[0].detail),
    );
  });

  it('refuses a required request field added with nothing to fill it', () => {
    const problems = problemsOf({
      instructions: [fieldAdded('OrderInput', 'customer'), fieldAdded('Order', 'customer')],
    });
    assert.deepEqual(problems.length, 1, problems.join('\n'));
    assert.match(problems[0]!, /v2 requests require OrderInput\.customer, which v1 requests do not have/);
  });

  it('refuses an optional field removed from responses without a migration: older clients would never see it', () => {
    const problems = problemsOf({
      instructions: [fieldRemoved({ schema: 'Order', field: 'note', definition: { type: 'string' } })],
    });
    assert.deepEqual(problems, [
      'v2: field-removed on Order.note needs responses.Order: without it, v1 responses never carry note',
    ]);
  });

  it('refuses enum values older responses cannot show and older requests may still send', () => {
    const problems = problemsOf({
      instructions: [
        enumValuesAdded({ schema: 'Order', field: 'shipping', values: ['pickup'] }),
        enumValuesRemoved({ schema: 'OrderInput', field: 'shipping', values: ['overnight'] }),
      ],
    });
    assert.deepEqual(problems, [
      'v2: enum-values-added on Order.shipping adds "pickup", which v1 responses cannot show: map it with mapDownTo, or declare responses.Order',
      'v2: enum-values-removed on OrderInput.shipping removes "overnight", which v1 requests may still send: map it with mapUpTo, or declare requests.OrderInput',
    ]);
  });

  it('accepts the enum changes once mapped', () => {
    const problems = problemsOf({
      instructions: [
        enumValuesAdded({ schema: 'Order', field: 'shipping', values: ['pickup'], mapDownTo: { pickup: 'standard' } }),
        enumValuesRemoved({
          schema: 'OrderInput',
          field: 'shipping',
          values: ['overnight'],
          mapUpTo: { overnight: 'standard' },
        }),
      ],
    });
    assert.deepEqual(problems, []);
  });
});
