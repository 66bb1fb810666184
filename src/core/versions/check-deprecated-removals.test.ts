import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElementDeprecation } from '../lifecycle/element-deprecation.ts';
import { checkDeprecatedRemovals } from './check-deprecated-removals.ts';
import { defineVersions } from './define-versions.ts';
import { deprecatedFieldRemoved, fieldAdded } from './instructions.ts';
import { defineVersionChange } from './version-change.ts';

const removal = (deprecatedIn: string) =>
  defineVersionChange({
    description: '`nickname` is gone: use `displayName`.',
    instructions: [
      deprecatedFieldRemoved({ schema: 'User', field: 'nickname', deprecatedIn, definition: { type: 'string' } }),
    ],
    responses: { User: (body) => ({ ...(body as object), nickname: (body as { displayName: string }).displayName }) },
  });
const bundleWith = (deprecatedIn: string) =>
  defineVersions({
    head: {
      schemas: {
        User: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, displayName: { type: 'string' } },
        },
      },
      operations: [
        {
          id: 'users.get',
          method: 'GET',
          path: '/users/{id}',
          summary: 'One user',
          responses: { 200: { description: 'ok', schema: 'User' } },
        },
      ],
    },
    versions: [
      { name: 'v1' },
      {
        name: 'v2',
        changes: [
          defineVersionChange({
            description: 'Users gain `displayName`.',
            instructions: [fieldAdded('User', 'displayName')],
          }),
        ],
      },
      { name: 'v3', changes: [removal(deprecatedIn)] },
    ],
  });
const nickname: ElementDeprecation = {
  kind: 'field',
  version: 'v2',
  element: 'User.nickname',
  schema: 'User',
  field: 'nickname',
  deprecatedAt: 0,
  sunsetAt: 1,
  replacement: 'displayName',
};

describe('deprecatedFieldRemoved', () => {
  it('removes the field as fieldRemoved does: older versions still carry its definition', () => {
    const bundle = bundleWith('v2');
    const props = (name: string) => Object.keys((bundle.get(name)!.schemas.User!.properties as object) ?? {});
    assert.deepEqual(props('v3'), ['id', 'displayName']);
    assert.deepEqual(props('v2'), ['id', 'displayName', 'nickname']);
    assert.deepEqual(props('v1'), ['id', 'nickname']);
    const step = bundle.get('v3')!.changes[0]!.instructions[0]!;
    assert.equal(step.op, 'field-removed');
    assert.equal(step.op === 'field-removed' ? step.deprecatedIn : undefined, 'v2');
  });
});

describe('checkDeprecatedRemovals', () => {
  it('accepts a removal whose deprecation the lifecycle declares', () => {
    assert.deepEqual(checkDeprecatedRemovals({ bundle: bundleWith('v2'), elements: [nickname] }), []);
  });

  it('refuses a removal that no field deprecation of that version announced', () => {
    const elsewhere: ElementDeprecation = { ...nickname, field: 'email', element: 'User.email' };
    const v1 = { ...nickname, version: 'v1' };
    for (const elements of [[], [elsewhere], [v1]]) {
      assert.deepEqual(checkDeprecatedRemovals({ bundle: bundleWith('v2'), elements }), [
        'v3 removes User.nickname as deprecated in v2, but v2 declares no field deprecation of User.nickname',
      ]);
    }
  });

  it('a parameter deprecation does not stand for a field one', () => {
    const parameter: ElementDeprecation = {
      kind: 'parameter',
      version: 'v2',
      element: 'GET /users?nickname',
      method: 'GET',
      path: '/users',
      parameter: 'nickname',
      deprecatedAt: 0,
      sunsetAt: 1,
    };
    assert.equal(checkDeprecatedRemovals({ bundle: bundleWith('v2'), elements: [parameter] }).length, 1);
  });

  it('refuses a deprecatedIn that is not an older version', () => {
    for (const name of ['v3', 'v9'])
      assert.deepEqual(
        checkDeprecatedRemovals({ bundle: bundleWith(name), elements: [{ ...nickname, version: name }] }),
        [`v3 removes User.nickname as deprecated in ${name}, which is not an older version of the bundle`],
      );
  });
});
