import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templateAt } from '../../core/rulebook/route-index.ts';
import { templateMatcher } from './thin-routes.ts';

describe('templateMatcher', () => {
  const templates = [
    '/users',
    '/users/{id}',
    '/users/me',
    '/users/{id}/posts/{post}',
    '/users/{id}/posts/latest',
    '/{tenant}/posts/latest',
    '/jobs/{id}:cancel',
    '/',
    '/a/{x}/c',
    '/a/b/{y}',
  ];
  const paths = [
    '/users',
    '/users/',
    '/users/1',
    '/users/me',
    '/users/1/posts/2',
    '/users/1/posts/latest',
    '/users/posts/latest',
    '/x/posts/latest',
    '/jobs/7:cancel',
    '/jobs/{id}:cancel',
    '/',
    '',
    '/a/b/c',
    '/a/z/c',
    '/nowhere',
    '/users/1/posts',
  ];
  it('finds what core’s templateAt finds, for every path and any order of the templates', () => {
    for (const order of [templates, [...templates].reverse()]) {
      const match = templateMatcher(order);
      for (const path of paths) assert.equal(match(path), templateAt(order, path), path);
    }
  });
});
