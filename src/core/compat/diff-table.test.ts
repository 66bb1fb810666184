// One test per row of the spec's "Backward-compatible changes" table, in both directions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object, openapi, requestDoc, responseDoc } from '../../../test/support/openapi-builder.ts';
import type { Change } from './types.ts';

const str = { type: 'string' };
const int = { type: 'integer' };

function request(oldSchema: unknown, newSchema: unknown): Change[] {
  return diffOpenApi({ base: requestDoc(oldSchema), revision: requestDoc(newSchema) }).changes;
}
function response(oldSchema: unknown, newSchema: unknown): Change[] {
  return diffOpenApi({ base: responseDoc(oldSchema), revision: responseDoc(newSchema) }).changes;
}
function only(changes: Change[]): Pick<Change, 'id' | 'level'> {
  assert.equal(changes.length, 1, `expected one change, got ${JSON.stringify(changes.map((c) => c.id))}`);
  const [c] = changes as [Change];
  return { id: c.id, level: c.level };
}

describe('spec table: add an optional response field (compatible)', () => {
  it('response: a new field is compatible', () => {
    assert.deepEqual(only(response(object({ id: int }), object({ id: int, email: str }))), {
      id: 'response-property-added',
      level: 'compatible',
    });
  });
  it('request: a new optional field is compatible', () => {
    assert.deepEqual(only(request(object({ name: str }), object({ name: str, email: str }))), {
      id: 'request-property-added-optional',
      level: 'compatible',
    });
  });
  it('request: a new required field breaks clients', () => {
    assert.deepEqual(
      only(request(object({ name: str }, ['name']), object({ name: str, nickname: str }, ['name', 'nickname']))),
      { id: 'request-property-added-required', level: 'breaking' },
    );
  });
});

describe('spec table: add an endpoint (compatible)', () => {
  it('a new operation is compatible; removing one breaks', () => {
    const one = openapi({ '/api/v1/users': { get: { responses: { '200': { description: 'ok' } } } } });
    const two = openapi({
      '/api/v1/users': {
        get: { responses: { '200': { description: 'ok' } } },
        post: { responses: { '201': { description: 'ok' } } },
      },
    });
    assert.deepEqual(only(diffOpenApi({ base: one, revision: two }).changes), {
      id: 'endpoint-added',
      level: 'compatible',
    });
    assert.deepEqual(only(diffOpenApi({ base: two, revision: one }).changes), {
      id: 'endpoint-removed',
      level: 'breaking',
    });
  });
});

describe('spec table: add an optional input field / relax input validation (compatible)', () => {
  it('request: required to optional is compatible', () => {
    assert.deepEqual(only(request(object({ name: str }, ['name']), object({ name: str }))), {
      id: 'request-property-became-optional',
      level: 'compatible',
    });
  });
  it('request: a looser bound is compatible, a stricter one breaks', () => {
    assert.deepEqual(
      only(
        request(
          object({ name: { type: 'string', maxLength: 10 } }),
          object({ name: { type: 'string', maxLength: 50 } }),
        ),
      ),
      { id: 'request-constraint-relaxed', level: 'compatible' },
    );
    assert.deepEqual(
      only(
        request(
          object({ name: { type: 'string', maxLength: 50 } }),
          object({ name: { type: 'string', maxLength: 10 } }),
        ),
      ),
      { id: 'request-constraint-tightened', level: 'breaking' },
    );
  });
  it('response: a looser bound is a risk, a stricter one is compatible', () => {
    assert.deepEqual(
      only(
        response(
          object({ name: { type: 'string', maxLength: 10 } }),
          object({ name: { type: 'string', maxLength: 50 } }),
        ),
      ),
      { id: 'response-constraint-relaxed', level: 'risk' },
    );
    assert.deepEqual(
      only(
        response(
          object({ name: { type: 'string', maxLength: 50 } }),
          object({ name: { type: 'string', maxLength: 10 } }),
        ),
      ),
      { id: 'response-constraint-tightened', level: 'compatible' },
    );
  });
});

describe('spec table: add an enum value (compatible, a risk in responses)', () => {
  const before = object({ status: { type: 'string', enum: ['active', 'inactive'] } });
  const after = object({ status: { type: 'string', enum: ['active', 'inactive', 'pending'] } });
  it('request: accepting a new value is compatible', () => {
    assert.deepEqual(only(request(before, after)), { id: 'request-enum-value-added', level: 'compatible' });
  });
  it('response: a new value is compatible by the table but reported as a risk', () => {
    const change = response(before, after)[0];
    assert.deepEqual(only(response(before, after)), { id: 'response-enum-value-added', level: 'risk' });
    assert.equal(change?.newValue, 'pending');
  });
});

describe('spec table: remove a field (breaking)', () => {
  it('response: a removed field breaks clients', () => {
    assert.deepEqual(only(response(object({ id: int, email: str }), object({ id: int }))), {
      id: 'response-property-removed',
      level: 'breaking',
    });
  });
  it('request: a removed input field breaks clients', () => {
    assert.deepEqual(only(request(object({ name: str, email: str }), object({ name: str }))), {
      id: 'request-property-removed',
      level: 'breaking',
    });
  });
});

describe('spec table: make an optional field required (breaking)', () => {
  it('request: optional to required breaks clients', () => {
    assert.deepEqual(only(request(object({ name: str }), object({ name: str }, ['name']))), {
      id: 'request-property-became-required',
      level: 'breaking',
    });
  });
  it('response: a field now always present is compatible; the reverse breaks', () => {
    assert.deepEqual(only(response(object({ name: str }), object({ name: str }, ['name']))), {
      id: 'response-property-became-required',
      level: 'compatible',
    });
    assert.deepEqual(only(response(object({ name: str }, ['name']), object({ name: str }))), {
      id: 'response-property-became-optional',
      level: 'breaking',
    });
  });
});

describe("spec table: change a field's type (breaking)", () => {
  it('request and response: string to integer breaks', () => {
    assert.deepEqual(only(request(object({ id: str }), object({ id: int }))), {
      id: 'request-type-changed',
      level: 'breaking',
    });
    assert.deepEqual(only(response(object({ id: str }), object({ id: int }))), {
      id: 'response-type-changed',
      level: 'breaking',
    });
  });
  it('widening integer to number is compatible in requests, breaking in responses', () => {
    assert.deepEqual(only(request(object({ n: int }), object({ n: { type: 'number' } }))), {
      id: 'request-type-widened',
      level: 'compatible',
    });
    assert.deepEqual(only(response(object({ n: int }), object({ n: { type: 'number' } }))), {
      id: 'response-type-changed',
      level: 'breaking',
    });
  });
  it('narrowing number to integer is compatible in responses, breaking in requests', () => {
    assert.deepEqual(only(response(object({ n: { type: 'number' } }), object({ n: int }))), {
      id: 'response-type-narrowed',
      level: 'compatible',
    });
    assert.deepEqual(only(request(object({ n: { type: 'number' } }), object({ n: int }))), {
      id: 'request-type-changed',
      level: 'breaking',
    });
  });
  it('a list response that becomes an object with data and meta breaks', () => {
    const list = { type: 'array', items: object({ id: int }) };
    const wrapped = object({ data: list, meta: { type: 'object' } });
    assert.deepEqual(only(response(list, wrapped)), { id: 'response-type-changed', level: 'breaking' });
  });
});

describe('spec table: rename a field (breaking)', () => {
  it('response and request: one field gone and an identical one added reads as a rename', () => {
    const c = response(object({ id: int, name: str }), object({ id: int, fullName: str }));
    assert.deepEqual(only(c), { id: 'response-property-renamed', level: 'breaking' });
    assert.equal(c[0]?.oldValue, 'name');
    assert.equal(c[0]?.newValue, 'fullName');
    assert.deepEqual(only(request(object({ name: str }), object({ fullName: str }))), {
      id: 'request-property-renamed',
      level: 'breaking',
    });
  });
});

describe('spec table: remove an enum value (breaking in both directions)', () => {
  const before = object({ status: { type: 'string', enum: ['active', 'inactive', 'pending'] } });
  const after = object({ status: { type: 'string', enum: ['active', 'inactive'] } });
  it('request: a value no longer accepted breaks clients', () => {
    assert.deepEqual(only(request(before, after)), { id: 'request-enum-value-removed', level: 'breaking' });
  });
  it('response: a value no longer produced breaks clients that store or send it back', () => {
    assert.deepEqual(only(response(before, after)), { id: 'response-enum-value-removed', level: 'breaking' });
  });
});

describe('spec table: change field order, for clients that rely on position (not compatible)', () => {
  it('response: reordered fields are reported as a risk', () => {
    assert.deepEqual(only(response(object({ id: int, name: str }), object({ name: str, id: int }))), {
      id: 'response-property-order-changed',
      level: 'risk',
    });
  });
  it('request: the server reads fields by name, so order is no change', () => {
    assert.deepEqual(request(object({ id: int, name: str }), object({ name: str, id: int })), []);
  });
});
