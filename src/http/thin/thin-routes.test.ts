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
    '/users//posts/latest',
    '/users/1/',
    '//',
    'users/1',
    '/a/b/c/',
  ];
  it('finds what core’s templateAt finds, for every path and any order of the templates', () => {
    for (const order of [templates, [...templates].reverse()]) {
      const match = templateMatcher(order);
      for (const path of paths) assert.equal(match(path), templateAt(order, path), path);
    }
  });

  it("agrees with templateAt on paths made of the templates' own segments, empty ones included", () => {
    const segments = ['', 'users', 'me', '1', 'posts', 'latest', 'a', 'b', 'c', 'jobs', '7:cancel', '{id}'];
    const match = templateMatcher(templates);
    // A fixed sequence (a linear congruential one), so that a failure is the same on every run.
    let seed = 7;
    const next = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    for (let i = 0; i < 5000; i++) {
      const path = `/${Array.from({ length: next(5) }, () => segments[next(segments.length)]).join('/')}`;
      assert.equal(match(path), templateAt(templates, path), path);
    }
  });
});
