import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
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

/** Drops `secret` from the objects of the schemas named in `names`, as an older version's shape drops an added field. */
const dropSecret =
  (...names: string[]) =>
  (name: string) =>
    names.includes(name)
      ? (value: unknown) => {
          if (!isPlainObject(value)) return value;
          const { secret: _secret, ...rest } = value;
          return rest;
        }
      : null;

describe('compileTransform walks JSON Schema', () => {
  const address = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };

  it("walks Pydantic's Optional[Address]: anyOf a reference and null", () => {
    const schemas: SchemaMap = {
      User: { type: 'object', properties: { address: { anyOf: [ref('Address'), { type: 'null' }] } } },
      Address: address,
    };
    const t = compileTransform({ schemas, own: dropSecret('Address') })('User')!;
    assert.deepEqual(t({ address: { city: 'Paris', secret: 1 } }), { address: { city: 'Paris' } });
    assert.deepEqual(t({ address: null }), { address: null });
  });

  it('walks oneOf by the discriminator, its mapping or the schema name', () => {
    const schemas: SchemaMap = {
      Pet: {
        oneOf: [ref('Cat'), ref('Dog')],
        discriminator: { propertyName: 'kind', mapping: { kitty: '#/components/schemas/Cat' } },
      },
      Cat: { type: 'object', properties: { kind: { type: 'string' } } },
      Dog: { type: 'object', properties: { kind: { type: 'string' } } },
    };
    const t = compileTransform({ schemas, own: dropSecret('Dog') })('Pet')!;
    assert.deepEqual(t({ kind: 'Dog', secret: 1 }), { kind: 'Dog' });
    assert.deepEqual(t({ kind: 'kitty', secret: 1 }), { kind: 'kitty', secret: 1 });
  });

  it('chooses the oneOf branch whose kind and required members fit', () => {
    const schemas: SchemaMap = {
      Either: { oneOf: [{ type: 'string' }, ref('Named'), ref('Numbered')] },
      Named: { type: 'object', required: ['name'] },
      Numbered: { type: 'object', required: ['number'] },
    };
    const t = compileTransform({ schemas, own: dropSecret('Numbered') })('Either')!;
    assert.equal(t('text'), 'text');
    assert.deepEqual(t({ name: 'a', secret: 1 }), { name: 'a', secret: 1 });
    assert.deepEqual(t({ number: 2, secret: 1 }), { number: 2 });
  });

  it('walks every part of an allOf, and a reference with siblings', () => {
    const schemas: SchemaMap = {
      Both: { allOf: [ref('Address'), { properties: { extra: ref('Address') } }] },
      Address: address,
    };
    const t = compileTransform({ schemas, own: dropSecret('Address') })('Both')!;
    assert.deepEqual(t({ city: 'a', secret: 1, extra: { city: 'b', secret: 2 } }), { city: 'a', extra: { city: 'b' } });
  });

  it('walks additionalProperties and patternProperties, each member by the schema JSON Schema gives it', () => {
    const schemas: SchemaMap = {
      Book: {
        type: 'object',
        properties: { own: { type: 'string' } },
        patternProperties: { '^x-': ref('Address') },
        additionalProperties: ref('Address'),
      },
      Address: address,
    };
    const t = compileTransform({ schemas, own: dropSecret('Address') })('Book')!;
    assert.deepEqual(t({ own: 'kept', 'x-a': { city: 'a', secret: 1 }, home: { city: 'b', secret: 2 } }), {
      own: 'kept',
      'x-a': { city: 'a' },
      home: { city: 'b' },
    });
  });

  it('walks prefixItems, then items for the rest; and a tuple written as a list of items', () => {
    const schemas: SchemaMap = {
      Pair: { type: 'array', prefixItems: [{ type: 'string' }, ref('Address')], items: ref('Address') },
      Old: { type: 'array', items: [ref('Address')] },
      Address: address,
    };
    const own = dropSecret('Address');
    const pair = compileTransform({ schemas, own })('Pair')!;
    const s = { city: 'c', secret: 1 };
    assert.deepEqual(pair(['a', s, s]), ['a', { city: 'c' }, { city: 'c' }]);
    assert.deepEqual(compileTransform({ schemas, own })('Old')!([s, s]), [{ city: 'c' }, s]);
  });

  it('walks type arrays and OpenAPI 3.0 nullable objects', () => {
    const schemas: SchemaMap = {
      User: {
        type: 'object',
        properties: {
          a: { type: ['object', 'null'], properties: { home: ref('Address') } },
          b: { anyOf: [{ type: 'object', nullable: true, properties: { home: ref('Address') } }] },
        },
      },
      Address: address,
    };
    const t = compileTransform({ schemas, own: dropSecret('Address') })('User')!;
    const home = { city: 'c', secret: 1 };
    assert.deepEqual(t({ a: { home }, b: { home } }), { a: { home: { city: 'c' } }, b: { home: { city: 'c' } } });
    assert.deepEqual(t({ a: null, b: null }), { a: null, b: null });
  });

  it('walks a recursive schema through anyOf, as deep as the value goes, without looping', () => {
    const schemas: SchemaMap = {
      Node: {
        type: 'object',
        properties: { next: { anyOf: [ref('Node'), { type: 'null' }] }, more: { additionalProperties: ref('Node') } },
      },
    };
    const t = compileTransform({ schemas, own: dropSecret('Node') })('Node')!;
    fc.assert(
      fc.property(fc.nat(40), (depth) => {
        let value: unknown = null;
        for (let i = 0; i < depth; i++) value = { next: value, secret: i };
        let out = t(value);
        for (let i = 0; i < depth; i++) {
          assert.ok(isPlainObject(out) && !('secret' in out));
          out = out.next;
        }
        assert.equal(out, null);
      }),
    );
  });

  it('walks a recursive member of a schema reached by allOf', () => {
    const schemas: SchemaMap = {
      A: { allOf: [ref('B')] },
      B: { type: 'object', properties: { next: ref('B') } },
    };
    const t = compileTransform({ schemas, own: dropSecret('B') })('A')!;
    assert.deepEqual(t({ secret: 1, next: { secret: 2, next: { secret: 3 } } }), { next: { next: {} } });
  });

  it('compiles to null, and leaves any value as it is, when nothing under a schema changes', () => {
    const schemas: SchemaMap = {
      Any: {
        anyOf: [ref('Any'), { type: 'null' }],
        oneOf: [{ type: 'array', prefixItems: [ref('Any')] }],
        allOf: [{ additionalProperties: ref('Any'), patternProperties: { '.': ref('Any') } }],
      },
    };
    assert.equal(compileTransform({ schemas, own: () => null })('Any'), null);
    const tagged = compileTransform({ schemas, own: (n) => (n === 'Any' ? (v) => v : null) })('Any')!;
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => assert.deepEqual(tagged(value), value)));
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
