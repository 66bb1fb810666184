import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templateAt } from './route-index.ts';

describe('templateAt', () => {
  const templates = ['/users', '/users/{id}', '/users/me', '/{kind}/{id}/posts', '/users/{id}/posts'];

  it('matches a parameter of any length, never an empty one', () => {
    assert.equal(templateAt(templates, `/users/${'x'.repeat(5001)}`), '/users/{id}');
    assert.equal(templateAt(templates, '/users/'), undefined);
    assert.equal(templateAt(templates, '/users/1/2'), undefined);
    assert.equal(templateAt(templates, '/not-in-the-document'), undefined);
  });

  it('prefers the template literal at the first segment where matches differ, whatever their order', () => {
    assert.equal(templateAt(templates, '/users/me'), '/users/me');
    assert.equal(templateAt(templates, '/users/7/posts'), '/users/{id}/posts');
    assert.equal(templateAt([...templates].reverse(), '/users/7/posts'), '/users/{id}/posts');
    assert.equal(templateAt(templates, '/teams/7/posts'), '/{kind}/{id}/posts');
  });
});
