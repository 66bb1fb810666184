import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTransform, isPlainObject, ref, refName } from './schema-walk.ts';
import type { SchemaMap } from './types.ts';

const tag = (value: unknown) => (isPlainObject(value) ? { ...value, seen: true } : value);

describe('compileTransform', () => {
  it('compiles a cyclic schema without looping and walks the value as deep as it goes', () => {
    const schemas: SchemaMap = {
      Node: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: ref('Node') }, parent: ref('Node') },
      },
    };
    const transform = compileTransform({ schemas, own: (n) => (n === 'Node' ? tag : null) })('Node');
    assert.ok(transform);
    const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }], parent: { name: 'p' } };
    assert.deepEqual(transform(value), {
      name: 'a',
      seen: true,
      parent: { name: 'p', seen: true },
      children: [{ name: 'b', seen: true, children: [{ name: 'c', seen: true }] }],
    });
  });

  it('compiles mutually recursive schemas', () => {
    const schemas: SchemaMap = {
      A: { type: 'object', properties: { b: ref('B') } },
      B: { type: 'object', properties: { a: ref('A'), x: { type: 'integer' } } },
    };
    const t = compileTransform({ schemas, own: (n) => (n === 'B' ? tag : null) })('A');
    assert.deepEqual(t!({ b: { a: { b: { x: 1 } } } }), { b: { seen: true, a: { b: { x: 1, seen: true } } } });
  });

  it('compiles to null when nothing under a schema changes', () => {
    const schemas: SchemaMap = {
      A: { type: 'object', properties: { x: { type: 'integer' }, self: ref('A') } },
      B: { type: 'object', properties: { a: ref('A') } },
    };
    assert.equal(compileTransform({ schemas, own: () => null })('B'), null);
  });

  it('applies children first, then the owner', () => {
    const order: string[] = [];
    const schemas: SchemaMap = {
      Outer: { type: 'object', properties: { inner: ref('Inner') } },
      Inner: { type: 'object' },
    };
    const t = compileTransform({
      schemas,
      own: (n) => (v) => {
        order.push(n);
        return v;
      },
    })('Outer');
    t!({ inner: {} });
    assert.deepEqual(order, ['Inner', 'Outer']);
  });

  it('leaves values of the wrong shape alone', () => {
    const schemas: SchemaMap = { L: { type: 'array', items: ref('I') }, I: { type: 'object' } };
    const t = compileTransform({ schemas, own: (n) => (n === 'I' ? tag : null) })('L')!;
    assert.equal(t('text'), 'text');
    assert.deepEqual(t([1, { a: 1 }]), [1, { a: 1, seen: true }]);
  });

  it('ignores unknown schema names', () => {
    assert.equal(compileTransform({ schemas: {}, own: () => null })('Ghost'), null);
  });
});

describe('refs', () => {
  it('round-trips component names and refuses other references', () => {
    assert.equal(refName(ref('User').$ref), 'User');
    assert.equal(refName('#/definitions/User'), undefined);
    assert.equal(refName(42), undefined);
  });
  it('knows plain objects', () => {
    assert.equal(isPlainObject({}), true);
    assert.equal(isPlainObject([]), false);
    assert.equal(isPlainObject(null), false);
  });
});
