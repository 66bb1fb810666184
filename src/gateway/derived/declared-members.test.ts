import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemberWalk } from './declared-members.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemas = {
  User: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      address: { anyOf: [ref('Address'), { type: 'null' }] },
      tags: { type: 'array', items: ref('Tag') },
      meta: { type: 'object' },
      labels: { type: 'object', additionalProperties: ref('Tag') },
      pet: { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'kind' } },
    },
  },
  Address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
  Tag: { allOf: [{ properties: { name: { type: 'string' } } }, { properties: { colour: { type: 'string' } } }] },
  Cat: { type: 'object', properties: { kind: { const: 'Cat' }, lives: { type: 'integer' } } },
  Dog: { type: 'object', properties: { kind: { const: 'Dog' }, good: { type: 'boolean' } } },
  Pair: { type: 'array', prefixItems: [ref('Address')], items: ref('Tag') },
  Tree: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, properties: { child: ref('Tree') } },
};

/** The body with its undeclared members dropped, and their pointers. */
function drop(name: string, body: unknown): { body: unknown; dropped: string[]; misfit?: string } {
  const dropped: string[] = [];
  const misfit = createMemberWalk(schemas)(name, body, ({ parent, key, pointer }) => {
    dropped.push(pointer);
    delete parent[key];
  });
  return { body, dropped, ...(misfit === undefined ? {} : { misfit }) };
}

describe('createMemberWalk', () => {
  it('drops members no applying schema declares, deep: nullable anyOf, arrays, allOf parts, discriminated oneOf', () => {
    const body = {
      id: 1,
      _internal: true,
      address: { city: 'London', country: 'UK' },
      tags: [{ name: 'a', colour: 'red', weight: 2 }],
      meta: { anything: { goes: 1 } },
      labels: { x: { name: 'b', secret: 1 } },
      pet: { kind: 'Cat', lives: 9, chip: 'x' },
    };
    assert.deepEqual(drop('User', body), {
      body: {
        id: 1,
        address: { city: 'London' },
        tags: [{ name: 'a', colour: 'red' }],
        meta: { anything: { goes: 1 } },
        labels: { x: { name: 'b' } },
        pet: { kind: 'Cat', lives: 9 },
      },
      dropped: ['/_internal', '/address/country', '/tags/0/weight', '/labels/x/secret', '/pet/chip'],
    });
    assert.deepEqual(drop('User', { address: null }).dropped, []);
  });

  it('follows prefixItems, patternProperties and recursive schemas', () => {
    assert.deepEqual(
      drop('Pair', [
        { city: 'A', zip: 1 },
        { name: 'n', more: 2 },
      ]).dropped,
      ['/0/zip', '/1/more'],
    );
    const tree = { 'x-a': 'kept', other: 1, child: { child: { 'x-b': 'kept', deep: true } } };
    assert.deepEqual(drop('Tree', tree).dropped, ['/other', '/child/child/deep']);
  });

  it('answers the pointer of a value that fits no branch, where what it declares cannot be told', () => {
    assert.equal(drop('User', { address: { street: 'no city' } }).misfit, '/address');
    assert.equal(drop('User', { address: 7 }).misfit, undefined, 'not an object: nothing to drop');
  });
});
