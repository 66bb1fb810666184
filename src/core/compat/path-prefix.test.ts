import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { toDocumentSet } from './document-set.ts';
import { openapi } from '../../../test/support/openapi-builder.ts';
import { rewritePaths, suggestPathRewrites, type PathRewrite } from './path-prefix.ts';

const op = { get: { responses: { '200': { description: 'ok' } } } };

/** The one path of a one-path document, rewritten. */
const rewritePath = (path: string, rewrite: PathRewrite): string => {
  const set = rewritePaths(toDocumentSet(openapi({ [path]: op })), rewrite);
  return Object.keys((set.documents.get(set.root) as { paths: object }).paths).join();
};

describe('rewritePath: strip, then prefix, as oasdiff does', () => {
  it('strips a leading prefix and adds another', () => {
    assert.equal(rewritePath('/api/v1/users', { strip: '/api/v1', prefix: '/api' }), '/api/users');
    assert.equal(rewritePath('/api/v1/users', { strip: '/api/v1/' }), '/users');
    assert.equal(rewritePath('/api/v1', { strip: '/api/v1' }), '/');
    assert.equal(rewritePath('/users', { prefix: '/api/' }), '/api/users');
  });

  it('leaves a path without the prefix, or with it only as part of a segment, as it is (then prefixes it)', () => {
    assert.equal(rewritePath('/health', { strip: '/api/v1' }), '/health');
    assert.equal(rewritePath('/api/v10/users', { strip: '/api/v1' }), '/api/v10/users');
  });
});

describe('rewritePaths', () => {
  it('lets operations whose paths differ by the version segment match, so nothing is removed', () => {
    const base = rewritePaths(toDocumentSet(openapi({ '/api/v1/users': op })), { strip: '/api/v1' });
    const revision = rewritePaths(toDocumentSet(openapi({ '/api/v2/users': op })), { strip: '/api/v2' });
    assert.deepEqual(diffOpenApi({ base, revision }).changes, []);
  });

  it('refuses to merge two paths into one', () => {
    const set = toDocumentSet(openapi({ '/api/v1/users': op, '/users': op }));
    assert.throws(
      () => rewritePaths(set, { strip: '/api/v1' }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'SPEC_INVALID');
        assert.match(e.message, /makes \/api\/v1\/users and \/users both \/users/);
        return true;
      },
    );
  });

  it('returns the same set when there is nothing to do', () => {
    const set = toDocumentSet(openapi({ '/users': op }));
    assert.equal(rewritePaths(set, {}), set);
  });
});

describe('suggestPathRewrites', () => {
  it('names both prefixes and what they share when every path differs only by its version segment', () => {
    assert.deepEqual(suggestPathRewrites(['/api/v1/users', '/api/v1/users/{id}'], ['/api/v2/users', '/api/v2/posts']), {
      base: '/api/v1',
      revision: '/api/v2',
      common: '/api',
    });
    assert.deepEqual(suggestPathRewrites(['/v1/users'], ['/v2/users']), { base: '/v1', revision: '/v2', common: '' });
  });

  it('suggests nothing when the versions are the same, a path has no version, the prefixes differ otherwise, or nothing would match', () => {
    assert.equal(suggestPathRewrites(['/api/v1/users'], ['/api/v1/users']), undefined);
    assert.equal(suggestPathRewrites(['/api/v1/users', '/health'], ['/api/v2/users']), undefined);
    assert.equal(suggestPathRewrites(['/api/v1/users'], ['/public/v2/users']), undefined);
    assert.equal(suggestPathRewrites(['/api/v1/users'], ['/api/v2/books']), undefined);
  });
});
