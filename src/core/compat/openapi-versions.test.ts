// OpenAPI 3.0 and 3.1 spell the same constraints differently; a description and its faithful
// upgrade must compare as equal, and a real change must still show through either spelling.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object, requestDoc, responseDoc } from '../../../test/support/openapi-builder.ts';
import { normalizeSchema } from './normalize-schema.ts';

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const v30 = load('petstore-3.0.json');
const v31 = load('petstore-3.1.json');
const ids = (base: unknown, revision: unknown) =>
  diffOpenApi({ base, revision }).changes.map((c) => `${c.id}:${c.level}`);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type Json = Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>;

describe('a 3.0 description and its faithful 3.1 upgrade', () => {
  it('report no change at all, in both directions', () => {
    assert.deepEqual(ids(v30, v31), []);
    assert.deepEqual(ids(v31, v30), []);
  });
  it('still report a real change made in the upgrade', () => {
    const changed = structuredClone(v31) as Json;
    const pet = changed.components!.schemas!.Pet!.properties as Record<string, Record<string, unknown>>;
    pet.weight = { type: 'number', minimum: 0 };
    pet.price = { $ref: '#/components/schemas/Money' };
    pet.tag = { type: ['string', 'null'], enum: ['new', 'adopted', 'lost', null] };
    assert.deepEqual(ids(v30, changed).sort(), [
      'response-became-not-nullable:compatible',
      'response-constraint-relaxed:risk',
      'response-enum-value-added:risk',
    ]);
    assert.deepEqual(ids(changed, v30).sort(), [
      'response-became-nullable:breaking',
      'response-constraint-tightened:compatible',
      'response-enum-value-removed:breaking',
    ]);
  });
  it('report the nullability of a peeled wrapper where the wrapper is, not at the shared schema', () => {
    const changed = structuredClone(v31) as Json;
    (changed.components!.schemas!.NewPet!.properties as Record<string, unknown>).price = ref('Money');
    const [change] = diffOpenApi({ base: v30, revision: changed }).changes;
    assert.equal(change?.id, 'request-became-not-nullable');
    assert.equal(change?.location.pointer, '/components/schemas/NewPet/properties/price');
  });
});

describe('exclusive bounds in either form', () => {
  const field = (schema: Record<string, unknown>) => object({ n: { type: 'number', ...schema } });
  const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['3.0 flag to 3.1 number', { minimum: 0, exclusiveMinimum: true }, { exclusiveMinimum: 0 }],
    ['3.0 flag off to plain minimum', { minimum: 5, exclusiveMinimum: false }, { minimum: 5 }],
    ['3.1 both keywords, exclusive binding', { minimum: 0, exclusiveMinimum: 3 }, { exclusiveMinimum: 3 }],
    ['3.1 both keywords, inclusive binding', { minimum: 7, exclusiveMinimum: 3 }, { minimum: 7 }],
    ['maximum flag', { maximum: 9, exclusiveMaximum: true }, { exclusiveMaximum: 9 }],
  ];
  for (const [name, a, b] of pairs) {
    it(`${name} is no change, both ways`, () => {
      assert.deepEqual(ids(requestDoc(field(a)), requestDoc(field(b))), []);
      assert.deepEqual(ids(requestDoc(field(b)), requestDoc(field(a))), []);
    });
  }
  it('excluding the bound value tightens; including it relaxes', () => {
    assert.deepEqual(ids(requestDoc(field({ minimum: 0 })), requestDoc(field({ exclusiveMinimum: 0 }))), [
      'request-constraint-tightened:breaking',
    ]);
    assert.deepEqual(ids(requestDoc(field({ exclusiveMinimum: 0 })), requestDoc(field({ minimum: 0 }))), [
      'request-constraint-relaxed:compatible',
    ]);
    assert.deepEqual(
      ids(requestDoc(field({ maximum: 10, exclusiveMaximum: true })), requestDoc(field({ maximum: 10 }))),
      ['request-constraint-relaxed:compatible'],
    );
    assert.deepEqual(
      ids(responseDoc(field({ maximum: 10 })), responseDoc(field({ maximum: 10, exclusiveMaximum: true }))),
      ['response-constraint-tightened:compatible'],
    );
  });
  it('moving the bound is judged by its value across forms', () => {
    assert.deepEqual(
      ids(requestDoc(field({ minimum: 0, exclusiveMinimum: true })), requestDoc(field({ minimum: 1 }))),
      ['request-constraint-tightened:breaking'],
    );
    assert.deepEqual(
      ids(requestDoc(field({ minimum: 1 })), requestDoc(field({ minimum: 0, exclusiveMinimum: true }))),
      ['request-constraint-relaxed:compatible'],
    );
  });
});

describe('nullable in either form', () => {
  const money = object({ amount: { type: 'number' } });
  it('a 3.0 nullable allOf wrapper and a 3.1 anyOf with null are the same, both ways', () => {
    const a = responseDoc(object({ price: { allOf: [ref('Money')], nullable: true } }), { Money: money });
    const b = responseDoc(object({ price: { anyOf: [ref('Money'), { type: 'null' }] } }), { Money: money });
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('a nullable union keeps its alternatives apart from its null member', () => {
    const a = responseDoc(
      { oneOf: [ref('A'), ref('B')], nullable: true },
      { A: money, B: object({ b: { type: 'string' } }) },
    );
    const b = responseDoc(
      { oneOf: [{ type: 'null' }, ref('A'), ref('B')] },
      { A: money, B: object({ b: { type: 'string' } }) },
    );
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('null in an enum of a nullable value is the nullability, not an enum value', () => {
    const a = requestDoc(object({ s: { type: 'string', nullable: true, enum: ['a'] } }));
    const b = requestDoc(object({ s: { type: ['string', 'null'], enum: ['a', null] } }));
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('dropping the null member is still a change', () => {
    const a = requestDoc(object({ p: { anyOf: [ref('Money'), { type: 'null' }] } }), { Money: money });
    const b = requestDoc(object({ p: ref('Money') }), { Money: money });
    assert.deepEqual(ids(a, b), ['request-became-not-nullable:breaking']);
    assert.deepEqual(ids(b, a), ['request-became-nullable:compatible']);
  });
});

describe('other spellings', () => {
  it('const and a one-value enum are the same', () => {
    const a = requestDoc(object({ k: { type: 'string', enum: ['dog'] } }));
    const b = requestDoc(object({ k: { type: 'string', const: 'dog' } }));
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('format byte/binary and contentEncoding/contentMediaType are the same', () => {
    const a = requestDoc(object({ f: { type: 'string', format: 'binary' }, t: { type: 'string', format: 'byte' } }));
    const b = requestDoc(
      object({
        f: { type: 'string', contentMediaType: 'image/png' },
        t: { type: 'string', contentEncoding: 'base64' },
      }),
    );
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('a text contentMediaType is a plain string, not binary', () => {
    const a = requestDoc(object({ doc: { type: 'string' } }));
    const b = requestDoc(object({ doc: { type: 'string', contentMediaType: 'application/json' } }));
    assert.deepEqual(ids(a, b), []);
    assert.deepEqual(ids(b, a), []);
  });
  it('normalizeSchema leaves a schema with nothing to rewrite untouched', () => {
    const plain = { type: 'string', maxLength: 3 };
    assert.equal(normalizeSchema(plain), plain);
    assert.deepEqual(normalizeSchema({ type: ['integer', 'null'], minimum: 1, exclusiveMinimum: true }), {
      type: 'integer',
      nullable: true,
      exclusiveMinimum: 1,
    });
  });
});
