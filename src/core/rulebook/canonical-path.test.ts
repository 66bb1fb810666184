import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalPath,
  targetProblem,
  targetUndecodable,
  targetUnreadable,
  undecodableTargetProblem,
  unreadableTargetProblem,
} from './canonical-path.ts';

describe('canonicalPath', () => {
  it('decodes once, so an encoded letter is judged as the letter', () => {
    assert.deepEqual(canonicalPath('/api/v2/%65cho?x=%2f'), { path: '/api/v2/echo' });
    assert.deepEqual(canonicalPath('/api/v2/users/1'), { path: '/api/v2/users/1' });
    assert.deepEqual(canonicalPath('http://example.com/api/v2/users'), { path: '/api/v2/users' });
    // Decoded once only: %25 is a literal "%", never decoded again.
    assert.deepEqual(canonicalPath('/api/v2/a%2565'), { path: '/api/v2/a%65' });
  });

  it('refuses every spelling that another server could read as another path', () => {
    const cases: Array<[string, string]> = [
      ['/api/v2/%2e%2e/v1/users', 'dot-segment'],
      ['/api/v2/../v1/users', 'dot-segment'],
      ['/api/v2/./users', 'dot-segment'],
      ['/api/v2/users%2f1', 'encoded-separator'],
      ['/api/v2/users%5C1', 'encoded-separator'],
      ['/api//v2/users', 'empty-segment'],
      ['/api/v2/users;x=1', 'semicolon'],
      ['/api/v2\\users', 'backslash'],
      ['/api/v2/users%zz', 'bad-escape'],
      ['/api/v2/users%00', 'encoded-control'],
      ['*', 'not-a-path'],
    ];
    for (const [target, reason] of cases) assert.deepEqual(canonicalPath(target), { refused: reason }, target);
  });

  it('words each refusal as a 404 problem', () => {
    const problem = targetProblem('dot-segment');
    assert.equal(problem.code, 'NOT_FOUND');
    assert.match(problem.detail, /"\." or "\.\." segment/);
  });

  it('finds the bytes no target may hold, and the targets that are not percent-encoded UTF-8', () => {
    assert.equal(targetUnreadable('/api/v2/users\xC0\xAF1'), true);
    assert.equal(targetUnreadable('/api/v2/users?q=a b'), true);
    assert.equal(targetUnreadable('/api/v2/users/%C3%A9?q=%7E'), false);
    assert.equal(targetUndecodable('/api/v2/users?x=%e9'), true);
    assert.equal(targetUndecodable('/api/v2/users?x=%zz'), true);
    assert.equal(targetUndecodable('/api/v2/users?x=%c3%a9'), false);
    assert.equal(unreadableTargetProblem().code, 'MALFORMED_REQUEST');
    assert.equal(undecodableTargetProblem().code, 'MALFORMED_REQUEST');
  });
});
