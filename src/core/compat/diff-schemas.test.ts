import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object, requestDoc, responseDoc } from '../../../test/support/openapi-builder.ts';
import type { Change } from './types.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function ids(changes: Change[]): string[] {
  return changes.map((c) => `${c.id}:${c.level}`);
}
function response(
  oldSchema: unknown,
  newSchema: unknown,
  schemas: { old?: Record<string, unknown>; new?: Record<string, unknown> } = {},
): Change[] {
  return diffOpenApi({ base: responseDoc(oldSchema, schemas.old), revision: responseDoc(newSchema, schemas.new) })
    .changes;
}
function request(
  oldSchema: unknown,
  newSchema: unknown,
  schemas: { old?: Record<string, unknown>; new?: Record<string, unknown> } = {},
): Change[] {
  return diffOpenApi({ base: requestDoc(oldSchema, schemas.old), revision: requestDoc(newSchema, schemas.new) })
    .changes;
}

describe('nested properties and arrays', () => {
  it('finds a removed field deep inside objects and array items', () => {
    const before = object({
      orders: { type: 'array', items: object({ lines: { type: 'array', items: object({ sku: str, qty: int }) } }) },
    });
    const after = object({
      orders: { type: 'array', items: object({ lines: { type: 'array', items: object({ sku: str }) } }) },
    });
    const [c] = response(before, after);
    assert.equal(c?.id, 'response-property-removed');
    assert.match(c?.message ?? '', /body\.orders\[\]\.lines\[\]\.qty/);
  });
  it('read-only fields are ignored in requests, write-only fields in responses', () => {
    assert.deepEqual(
      request(object({ name: str }), object({ name: str, id: { type: 'integer', readOnly: true } }, ['id'])),
      [],
    );
    assert.deepEqual(
      response(object({ id: int, password: { type: 'string', writeOnly: true } }), object({ id: int })),
      [],
    );
  });
});

describe('nullable (3.0 nullable and 3.1 null types)', () => {
  it('a response value that may become null breaks; a request value that accepts null is compatible', () => {
    assert.deepEqual(ids(response(object({ a: str }), object({ a: { type: ['string', 'null'] } }))), [
      'response-became-nullable:breaking',
    ]);
    assert.deepEqual(ids(request(object({ a: str }), object({ a: { type: 'string', nullable: true } }))), [
      'request-became-nullable:compatible',
    ]);
    assert.deepEqual(ids(request(object({ a: { type: 'string', nullable: true } }), object({ a: str }))), [
      'request-became-not-nullable:breaking',
    ]);
  });
  it('3.0 nullable and 3.1 type arrays mean the same thing', () => {
    assert.deepEqual(
      response(object({ a: { type: 'string', nullable: true } }), object({ a: { type: ['null', 'string'] } })),
      [],
    );
  });
});

describe('additionalProperties', () => {
  it('closing a request object breaks; opening it is compatible', () => {
    assert.deepEqual(ids(request({ ...object({ a: str }) }, { ...object({ a: str }), additionalProperties: false })), [
      'request-additional-properties-restricted:breaking',
    ]);
    assert.deepEqual(ids(request({ ...object({ a: str }), additionalProperties: false }, object({ a: str }))), []);
    assert.deepEqual(
      ids(
        request(
          { ...object({ a: str }), additionalProperties: false },
          { ...object({ a: str }), additionalProperties: true },
        ),
      ),
      ['request-additional-properties-allowed:compatible'],
    );
  });
  it('map value schemas are compared', () => {
    assert.deepEqual(
      ids(response({ type: 'object', additionalProperties: int }, { type: 'object', additionalProperties: str })),
      ['response-type-changed:breaking'],
    );
  });
});

describe('oneOf / anyOf / allOf', () => {
  const schemas = { Card: object({ last4: str }), Bank: object({ iban: str }), Wallet: object({ provider: str }) };
  it('a new response alternative is a risk, a removed request alternative breaks', () => {
    assert.deepEqual(
      ids(
        response(
          { oneOf: [ref('Card'), ref('Bank')] },
          { oneOf: [ref('Card'), ref('Bank'), ref('Wallet')] },
          { old: schemas, new: schemas },
        ),
      ),
      ['response-variant-added:risk'],
    );
    assert.deepEqual(
      ids(request({ anyOf: [ref('Card'), ref('Bank')] }, { anyOf: [ref('Card')] }, { old: schemas, new: schemas })),
      ['request-variant-removed:breaking'],
    );
  });
  it('changes inside a matched alternative are found', () => {
    const changed = { ...schemas, Card: object({ last4: int }) };
    assert.deepEqual(
      ids(
        response(
          { oneOf: [ref('Card'), ref('Bank')] },
          { oneOf: [ref('Bank'), ref('Card')] },
          { old: schemas, new: changed },
        ),
      ),
      ['response-type-changed:breaking'],
    );
  });
  it('a plain value that becomes a union keeps its old alternative (expandable field)', () => {
    const before = object({ customer: str });
    const after = object({ customer: { anyOf: [str, ref('Card')] } });
    assert.deepEqual(ids(response(before, after, { new: schemas })), ['response-variant-added:risk']);
    assert.deepEqual(ids(request(before, after, { new: schemas })), ['request-variant-added:compatible']);
  });
  it('allOf members: a removed response member is a risk and the fields it brought are removed', () => {
    const base = { Base: object({ id: int }), Extra: object({ note: str }), Audit: object({ at: str }) };
    assert.deepEqual(
      ids(
        response(
          { allOf: [ref('Base'), ref('Extra'), ref('Audit')] },
          { allOf: [ref('Base'), ref('Audit')] },
          { old: base, new: base },
        ),
      ),
      ['response-property-removed:breaking', 'response-all-of-removed:risk'],
    );
    assert.deepEqual(
      ids(response({ allOf: [ref('Base'), ref('Extra')] }, { allOf: [ref('Base')] }, { old: base, new: base })),
      ['response-property-removed:breaking'],
    );
  });
  it('allOf members: changes in a shared member are found once', () => {
    const base = { Base: object({ id: int }), Extra: object({ note: str }) };
    const changed = { ...base, Base: object({ id: str }) };
    assert.deepEqual(
      ids(
        response(
          { allOf: [ref('Base'), ref('Extra')] },
          { allOf: [ref('Base'), ref('Extra')] },
          { old: base, new: changed },
        ),
      ),
      ['response-type-changed:breaking'],
    );
  });
  it('discriminator property changes break', () => {
    const u = (prop: string) => ({ oneOf: [ref('Card'), ref('Bank')], discriminator: { propertyName: prop } });
    assert.deepEqual(ids(response(u('kind'), u('type'), { old: schemas, new: schemas })), [
      'response-discriminator-changed:breaking',
    ]);
  });
});

describe('formats, defaults and constraints', () => {
  it('format changes', () => {
    assert.deepEqual(
      ids(
        response(
          object({ at: { type: 'string', format: 'date' } }),
          object({ at: { type: 'string', format: 'date-time' } }),
        ),
      ),
      ['response-format-changed:breaking'],
    );
    assert.deepEqual(ids(request(object({ at: { type: 'string', format: 'date' } }), object({ at: str }))), [
      'request-format-removed:compatible',
    ]);
  });
  it('a changed request default is a risk', () => {
    assert.deepEqual(
      ids(
        request(
          object({ limit: { type: 'integer', default: 10 } }),
          object({ limit: { type: 'integer', default: 20 } }),
        ),
      ),
      ['request-default-changed:risk'],
    );
  });
  it('patterns: added tightens a request, changed is a risk, removed relaxes', () => {
    const p = (pattern?: string) => object({ code: pattern === undefined ? str : { type: 'string', pattern } });
    assert.deepEqual(ids(request(p(), p('^[A-Z]+$'))), ['request-constraint-tightened:breaking']);
    assert.deepEqual(ids(request(p('^[A-Z]+$'), p('^[a-z]+$'))), ['request-constraint-changed:risk']);
    assert.deepEqual(ids(request(p('^[A-Z]+$'), p())), ['request-constraint-relaxed:compatible']);
  });
  it('minimum raised and minItems raised tighten a request', () => {
    assert.deepEqual(
      ids(request(object({ n: { type: 'integer', minimum: 0 } }), object({ n: { type: 'integer', minimum: 1 } }))),
      ['request-constraint-tightened:breaking'],
    );
    assert.deepEqual(
      ids(
        request(
          object({ t: { type: 'array', items: str } }),
          object({ t: { type: 'array', items: str, minItems: 1 } }),
        ),
      ),
      ['request-constraint-tightened:breaking'],
    );
  });
  it('a request value restricted to an enum breaks', () => {
    assert.deepEqual(ids(request(object({ s: str }), object({ s: { type: 'string', enum: ['a'] } }))), [
      'request-became-enum:breaking',
    ]);
  });
});
