import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSchemaCompatibility, SchemaRule } from './schema-check.ts';
import { object } from './fixtures/openapi-builder.ts';

const str = { type: 'string' };
const int = { type: 'integer' };

describe('checkSchemaCompatibility: the three rules of the spec', () => {
  it('rule 1: a field of the old schema missing from the new one', () => {
    const v = checkSchemaCompatibility(object({ id: int, email: str }), object({ id: int }));
    assert.deepEqual(
      v.map((x) => [x.rule, x.field, x.pointer]),
      [[SchemaRule.FieldMissing, 'email', '/properties/email']],
    );
  });
  it('rule 2: a field present in both with a different type', () => {
    const v = checkSchemaCompatibility(object({ id: int }), object({ id: str }));
    assert.deepEqual(
      v.map((x) => [x.rule, x.field, x.oldType, x.newType]),
      [[SchemaRule.FieldTypeChanged, 'id', 'integer', 'string']],
    );
  });
  it('rule 3: a field required in the new schema and not in the old one', () => {
    const v = checkSchemaCompatibility(object({ name: str }), object({ name: str }, ['name']));
    assert.deepEqual(
      v.map((x) => [x.rule, x.field]),
      [[SchemaRule.FieldBecameRequired, 'name']],
    );
  });
  it('passes for the compatible changes of the table', () => {
    assert.deepEqual(
      checkSchemaCompatibility(object({ id: int }, ['id']), object({ id: int, email: str }, ['id'])),
      [],
    );
    assert.deepEqual(checkSchemaCompatibility(object({ id: int }, ['id']), object({ id: int })), []);
    assert.deepEqual(
      checkSchemaCompatibility(
        object({ s: { type: 'string', enum: ['a'] } }),
        object({ s: { type: 'string', enum: ['a', 'b'] } }),
      ),
      [],
    );
  });
  it('reports every violation, nested fields and array items included', () => {
    const before = object({ a: object({ b: str, c: int }), list: { type: 'array', items: object({ x: str }) } });
    const after = object({ a: object({ c: str }, ['c']), list: { type: 'array', items: object({}) } });
    const v = checkSchemaCompatibility(before, after).map((x) => `${x.rule} ${x.field}`);
    assert.deepEqual(v, [
      'field-missing a.b',
      'field-became-required a.c',
      'field-type-changed a.c',
      'field-missing list[].x',
    ]);
  });
  it('follows $refs into a root document and terminates on cycles', () => {
    const root = (idType: string) => ({
      $defs: { Node: object({ id: { type: idType }, next: { $ref: '#/$defs/Node' } }) },
    });
    const oldRoot = root('integer');
    const newRoot = root('string');
    const v = checkSchemaCompatibility({ $ref: '#/$defs/Node' }, { $ref: '#/$defs/Node' }, { oldRoot, newRoot });
    assert.deepEqual(
      v.map((x) => `${x.rule} ${x.field}`),
      ['field-type-changed id'],
    );
  });
  it('counts fields brought in by allOf', () => {
    const before = object({ id: int, name: str });
    const after = { allOf: [object({ id: int }), object({ name: str })] };
    assert.deepEqual(checkSchemaCompatibility(before, after), []);
  });
  it('treats integer and number as different types, as the spec asks', () => {
    assert.equal(
      checkSchemaCompatibility(object({ n: int }), object({ n: { type: 'number' } }))[0]?.rule,
      SchemaRule.FieldTypeChanged,
    );
  });
});
