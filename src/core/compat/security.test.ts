// Security requirements are judged by who can still call: a requirement where anonymous calls
// worked, a dropped way to authenticate or a new scope breaks clients; the reverse edits do not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';

const ok = { description: 'ok' };
const schemes = {
  bearer: { type: 'http', scheme: 'bearer' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  oauth: {
    type: 'oauth2',
    flows: {
      clientCredentials: {
        tokenUrl: 'https://auth.example/token',
        scopes: { 'users:read': 'read', 'users:write': 'write' },
      },
    },
  },
};
function doc(
  options: { op?: unknown[]; global?: unknown[]; schemes?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const get: Record<string, unknown> = { responses: { '200': ok } };
  if (options.op !== undefined) get.security = options.op;
  const out: Record<string, unknown> = {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: { '/api/v1/users': { get }, '/api/v1/posts': { get: { responses: { '200': ok } } } },
    components: { securitySchemes: options.schemes ?? schemes },
  };
  if (options.global !== undefined) out.security = options.global;
  return out;
}
const ids = (base: unknown, revision: unknown) =>
  diffOpenApi({ base, revision }).changes.map((c) => `${c.id}:${c.level}`);

describe('security requirements on an operation', () => {
  it('a requirement added where anonymous calls worked breaks; removing it is compatible', () => {
    assert.deepEqual(ids(doc(), doc({ op: [{ bearer: [] }] })), ['security-requirement-added:breaking']);
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc()), ['security-requirement-removed:compatible']);
    const [change] = diffOpenApi({ base: doc(), revision: doc({ op: [{ bearer: [] }] }) }).changes;
    assert.deepEqual(
      { method: change?.location.method, path: change?.location.path, pointer: change?.location.pointer },
      { method: 'GET', path: '/api/v1/users', pointer: '/paths/~1api~1v1~1users/get/security' },
    );
    assert.match(change?.message ?? '', /GET \/api\/v1\/users now require credentials \(`bearer`\)/);
  });
  it('dropping the optional (empty) alternative makes credentials required; adding it makes them optional', () => {
    assert.deepEqual(ids(doc({ op: [{}, { bearer: [] }] }), doc({ op: [{ bearer: [] }] })), [
      'security-requirement-added:breaking',
    ]);
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{}, { bearer: [] }] })), [
      'security-requirement-removed:compatible',
    ]);
  });
  it('a way to authenticate dropped breaks; one added is compatible', () => {
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }, { apiKey: [] }] }), doc({ op: [{ bearer: [] }] })), [
      'security-alternative-removed:breaking',
    ]);
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{ bearer: [] }, { apiKey: [] }] })), [
      'security-alternative-added:compatible',
    ]);
  });
  it('replacing one scheme by another breaks', () => {
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{ apiKey: [] }] })), [
      'security-alternative-removed:breaking',
      'security-alternative-added:compatible',
    ]);
    assert.deepEqual(ids(doc({ op: [{ apiKey: [] }] }), doc({ op: [{ bearer: [] }] })), [
      'security-alternative-removed:breaking',
      'security-alternative-added:compatible',
    ]);
  });
  it('asking for fewer schemes together relaxes; asking for more breaks', () => {
    assert.deepEqual(ids(doc({ op: [{ bearer: [], apiKey: [] }] }), doc({ op: [{ bearer: [] }] })), [
      'security-alternative-added:compatible',
    ]);
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{ bearer: [], apiKey: [] }] })), [
      'security-alternative-removed:breaking',
      'security-alternative-added:compatible',
    ]);
  });
  it('a scope added breaks; a scope removed is compatible', () => {
    assert.deepEqual(
      ids(doc({ op: [{ oauth: ['users:read'] }] }), doc({ op: [{ oauth: ['users:read', 'users:write'] }] })),
      ['security-scope-added:breaking'],
    );
    assert.deepEqual(
      ids(doc({ op: [{ oauth: ['users:read', 'users:write'] }] }), doc({ op: [{ oauth: ['users:read'] }] })),
      ['security-scope-removed:compatible'],
    );
  });
  it('a renamed scheme that sends the same credential is no change, both ways', () => {
    const renamed = { ...schemes, token: schemes.bearer };
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{ token: [] }], schemes: renamed })), []);
    assert.deepEqual(ids(doc({ op: [{ token: [] }], schemes: renamed }), doc({ op: [{ bearer: [] }] })), []);
  });
  it('a scheme that sends its credential elsewhere is another way to authenticate', () => {
    const moved = { ...schemes, apiKey: { type: 'apiKey', in: 'query', name: 'key' } };
    assert.deepEqual(ids(doc({ op: [{ apiKey: [] }] }), doc({ op: [{ apiKey: [] }], schemes: moved })), [
      'security-alternative-removed:breaking',
      'security-alternative-added:compatible',
    ]);
  });
});

describe('the global security an operation inherits', () => {
  it('a global requirement added breaks once, naming every operation that inherits it', () => {
    const changes = diffOpenApi({ base: doc(), revision: doc({ global: [{ bearer: [] }] }) }).changes;
    assert.deepEqual(
      changes.map((c) => `${c.id}:${c.level}`),
      ['security-requirement-added:breaking'],
    );
    assert.equal(changes[0]?.location.pointer, '/security');
    assert.deepEqual(changes[0]?.location.operations, ['GET /api/v1/users', 'GET /api/v1/posts']);
    assert.equal(changes[0]?.location.operationCount, 2);
    assert.deepEqual(ids(doc({ global: [{ bearer: [] }] }), doc()), ['security-requirement-removed:compatible']);
    const [removed] = diffOpenApi({ base: doc({ global: [{ bearer: [] }] }), revision: doc() }).changes;
    assert.equal(removed?.location.pointer, '/security');
    assert.equal(removed?.location.operationCount, 2);
  });
  it('an operation that opts out with its own empty list is unaffected', () => {
    const changes = diffOpenApi({ base: doc({ op: [] }), revision: doc({ op: [], global: [{ bearer: [] }] }) }).changes;
    assert.deepEqual(changes[0]?.location.operations, ['GET /api/v1/posts']);
  });
  it('a global scope added breaks; moving the same list onto the operation is no change', () => {
    assert.deepEqual(
      ids(doc({ global: [{ oauth: ['users:read'] }] }), doc({ global: [{ oauth: ['users:read', 'users:write'] }] })),
      ['security-scope-added:breaking'],
    );
    assert.deepEqual(
      ids(doc({ global: [{ oauth: ['users:read', 'users:write'] }] }), doc({ global: [{ oauth: ['users:read'] }] })),
      ['security-scope-removed:compatible'],
    );
    assert.deepEqual(
      ids(doc({ global: [{ bearer: [] }] }), doc({ global: [{ bearer: [] }], op: [{ bearer: [] }] })),
      [],
    );
  });
});

describe('security schemes in the components', () => {
  it('an unused scheme removed is reported and breaks nobody; adding it back is no change', () => {
    const fewer = { bearer: schemes.bearer, apiKey: schemes.apiKey };
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }] }), doc({ op: [{ bearer: [] }], schemes: fewer })), [
      'security-scheme-removed:compatible',
    ]);
    assert.deepEqual(ids(doc({ op: [{ bearer: [] }], schemes: fewer }), doc({ op: [{ bearer: [] }] })), []);
  });
  it('a scheme removed together with the requirements that used it breaks those operations', () => {
    const fewer = { apiKey: schemes.apiKey, oauth: schemes.oauth };
    assert.deepEqual(
      ids(doc({ op: [{ bearer: [] }, { apiKey: [] }] }), doc({ op: [{ apiKey: [] }], schemes: fewer })).sort(),
      ['security-alternative-removed:breaking', 'security-scheme-removed:compatible'],
    );
  });
});
