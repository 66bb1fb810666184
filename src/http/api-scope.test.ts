import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiScope } from './api-scope.ts';

test('routeOf reads the version and the path after it, under a literal prefix', () => {
  const read = (prefix: string, route: string) => {
    const r = createApiScope(prefix).routeOf(route);
    return r && [r.version, r.path, r.template];
  };
  assert.deepEqual(read('/api', '/api/v2/users/:id'), ['v2', '/users/:id', '/users/{id}']);
  assert.deepEqual(read('/api', '/api/v1'), ['v1', '/', '/']);
  assert.deepEqual(read('/public', '/public/v1/*'), ['v1', '/*', '/*']);
  assert.equal(read('/api', '/apix/v1/users'), undefined);
  assert.equal(read('/a.b', '/aXb/v1/users'), undefined, 'the prefix is literal');
  assert.equal(read('/api', '/admin/v1/clients'), undefined);
  assert.equal(read('/api', '/api/versions'), undefined);
  assert.equal(read('/api', '/api/vx/users'), undefined);
  assert.equal(createApiScope('/api').routeOf('/api/v2/openapi.json')?.isDocument, true);
});

test('versionOf reads a raw path, with a query or fragment after the version', () => {
  const scope = createApiScope('/public');
  assert.equal(scope.versionOf('/public/v2/users/1'), 'v2');
  assert.equal(scope.versionOf('/public/v3?x=1'), 'v3');
  assert.equal(scope.versionOf('/public/v3#top'), 'v3');
  assert.equal(scope.versionOf('/public/v12'), 'v12');
  assert.equal(scope.versionOf('/api/v2/users'), undefined, '/api is just another path under /public');
  assert.equal(scope.versionOf('/publicv2/users'), undefined);
  assert.equal(scope.versionOf('/public/v/users'), undefined);
  assert.equal(scope.versionOf('/public/v2x/users'), undefined);
});

test('isApi and isManagement match the prefix as whole segments', () => {
  const scope = createApiScope('/public');
  assert.equal(scope.isApi('/public'), true);
  assert.equal(scope.isApi('/public?x'), true);
  assert.equal(scope.isApi('/public/versions'), true);
  assert.equal(scope.isApi('/publication'), false);
  assert.equal(scope.isApi('/api/v1/users'), false);
  assert.equal(scope.isManagement('/admin/v1/clients'), true);
  assert.equal(scope.isManagement('/administrator'), false);
});

test('one object per configured prefix', () => {
  assert.equal(createApiScope('/public'), createApiScope('/public'));
  assert.notEqual(createApiScope('/public'), createApiScope('/api'));
});
