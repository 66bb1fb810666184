import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routablePath } from './check-definition.ts';

describe('routablePath', () => {
  it('takes the templates frameworks write: camelCase, snake_case and PascalCase parameters, dots and underscores', () => {
    for (const path of [
      '/users/{userId}',
      '/users/{user_id}',
      '/users/{UserId}/emails',
      '/v1.0/user_profiles',
      '/a~b/{_id}',
    ])
      assert.ok(routablePath.test(path), path);
  });

  it('refuses dot segments, empty segments and templates no router takes as they are', () => {
    for (const path of [
      '/users/..',
      '/./users',
      '/users//x',
      '/users/{}',
      '/jobs/{id}:cancel',
      '/{user.id}',
      'users',
      '/',
    ])
      assert.equal(routablePath.test(path), false, path);
  });
});
