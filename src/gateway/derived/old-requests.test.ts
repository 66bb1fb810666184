import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiVersion } from '../../core/versions/index.ts';
import { createMemberWalk } from './declared-members.ts';
import { createOldRequestCheck } from './old-requests.ts';

const version = {
  name: 'v1',
  schemas: {
    User: {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string', maxLength: 5 },
        tags: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
} as unknown as ApiVersion;

describe('createOldRequestCheck', () => {
  const check = createOldRequestCheck(version, createMemberWalk(version.schemas));
  const pointers = (body: unknown) => check('User', body)?.errors?.map((e) => e.pointer);

  it('takes a body without its readOnly members, and with members only the schema maps', () => {
    assert.equal(check('User', { name: 'Ada', tags: { any: 'x' } }), undefined);
  });

  it("names each problem by its pointer: the schema's constraints, then members it does not declare", () => {
    assert.deepEqual(pointers({ name: 'Adalovelace' }), ['/body/name']);
    assert.deepEqual(pointers({ name: 'Ada', email: 'a@b', extra: 1 }), ['/body/email', '/body/extra']);
    assert.equal(check('User', { name: 'Ada', email: 'a' })?.code, 'VALIDATION_FAILED');
  });

  it('refuses a member named __proto__, even where the schema takes any name', () => {
    assert.deepEqual(pointers(JSON.parse('{"name":"Ada","tags":{"__proto__":"x"}}')), ['/body/tags/__proto__']);
  });
});
