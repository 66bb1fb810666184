import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isVersionaryError } from '../errors/index.ts';
import { assertRefsResolve } from './walk-objects.ts';
import { collectExternalRefs } from './walk-objects.ts';
import { createRefResolver, resolveRefUri } from './ref-resolver.ts';
import { resolveSchema } from './schema-model.ts';

const set = (docs: Record<string, unknown>, root = 'file:///api/openapi.json') => ({
  root,
  documents: new Map(Object.entries(docs)),
});

describe('ref resolution over a document set', () => {
  it('resolves refs across files relative to the referring document', () => {
    const docs = set({
      'file:///api/openapi.json': { a: { $ref: 'schemas/user.json#/User' } },
      'file:///api/schemas/user.json': { User: { $ref: '../common.json#/Id' } },
      'file:///api/common.json': { Id: { type: 'integer' } },
    });
    const node = createRefResolver(docs).resolve({
      uri: docs.root,
      pointer: '/a',
      value: { $ref: 'schemas/user.json#/User' },
    });
    assert.equal(node.uri, 'file:///api/common.json');
    assert.equal(node.pointer, '/Id');
    assert.deepEqual(node.value, { type: 'integer' });
  });
  it('names components and decodes escaped pointers', () => {
    const docs = set({ 'file:///api/openapi.json': { components: { schemas: { 'a/b': { type: 'string' } } } } });
    const node = createRefResolver(docs).resolve({
      uri: docs.root,
      pointer: '',
      value: { $ref: '#/components/schemas/a~1b' },
    });
    assert.equal(node.name, 'a/b');
  });
  it('a missing target throws REF_BROKEN naming the place of the ref', () => {
    const docs = set({ 'file:///api/openapi.json': { x: { $ref: '#/nope' } } });
    assert.throws(
      () => assertRefsResolve(docs),
      (e) =>
        isVersionaryError(e) &&
        e.code === 'REF_BROKEN' &&
        e.detail.includes('file:///api/openapi.json#/x') &&
        e.detail.includes('/nope'),
    );
  });
  it('a ref loop throws REF_BROKEN instead of spinning', () => {
    const docs = set({ 'file:///api/openapi.json': { a: { $ref: '#/b' }, b: { $ref: '#/a' } } });
    assert.throws(
      () => assertRefsResolve(docs),
      (e) => isVersionaryError(e) && e.code === 'REF_BROKEN' && /loop/.test(e.detail),
    );
  });
  it('shares the node a ref leads to, and a peeled nullable wrapper does not mark the shared one', () => {
    const docs = set({
      'file:///api/openapi.json': {
        components: { schemas: { User: { type: 'object' } } },
        a: { nullable: true, allOf: [{ $ref: '#/components/schemas/User' }] },
        b: { $ref: '#/components/schemas/User' },
      },
    });
    const resolver = createRefResolver(docs);
    const doc = docs.documents.get(docs.root) as Record<string, unknown>;
    const wrapped = resolveSchema(resolver, { uri: docs.root, pointer: '/a', value: doc.a });
    assert.equal(wrapped.nullable, true);
    assert.equal(wrapped.name, 'User');
    const plain = resolver.resolve({ uri: docs.root, pointer: '/b', value: doc.b });
    assert.equal(plain.nullable, undefined);
    assert.equal(plain.site, undefined);
    assert.equal(
      plain,
      resolver.resolve({ uri: docs.root, pointer: '/c', value: { $ref: '#/components/schemas/User' } }),
    );
  });
  it("checks a ref text again in another document, and names the broken one's place escaped", () => {
    const docs = set({
      'file:///api/openapi.json': { X: { type: 'string' }, a: { $ref: '#/X' }, o: { $ref: 'other.json#/Y' } },
      'file:///api/other.json': { Y: { type: 'string' }, 'p/q': [{ $ref: '#/X' }] },
    });
    assert.throws(
      () => assertRefsResolve(docs),
      (e) => isVersionaryError(e) && e.code === 'REF_BROKEN' && e.detail.includes('file:///api/other.json#/p~1q/0'),
    );
  });
  it('lists the external documents a document needs', () => {
    const refs = collectExternalRefs(
      { p: { $ref: 'common.yaml#/X' }, q: { $ref: '#/local' } },
      'file:///api/openapi.yaml',
    );
    assert.deepEqual(refs, [{ target: 'file:///api/common.yaml', ref: 'common.yaml#/X', at: '/p' }]);
    assert.deepEqual(resolveRefUri('#/a', 'file:///x.json'), { uri: 'file:///x.json', pointer: '/a' });
  });
});
