import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import type { Change } from './types.ts';
import { fingerprintOf } from './usage-gate.ts';
import { judgeChanges, operationsReached, toUsageEndpoint, type GateUsageRow } from './usage-gate.ts';

const now = Date.UTC(2026, 10, 26);
const user = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
const ok = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });

/** A served-style document: paths under `${prefix}/${version}`, a shared User schema. */
function doc(options: { prefix: string; version: string; email?: boolean; posts?: boolean; extraParam?: boolean }) {
  const base = `${options.prefix}/${options.version}`;
  const ref = { $ref: '#/components/schemas/User' };
  const paths: Record<string, unknown> = {
    [`${base}/users/{id}`]: {
      get: {
        parameters: [
          ...(options.extraParam ? [{ name: 'expand', in: 'query', schema: { type: 'string' } }] : []),
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'fields', in: 'query', schema: { type: 'string' } },
        ],
        responses: ok(ref),
      },
      put: { responses: ok(ref) },
    },
  };
  if (options.posts !== false) paths[`${base}/posts`] = { get: { responses: ok({ type: 'array' }) } };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: options.version },
    paths,
    components: {
      schemas: {
        User: user({ id: { type: 'integer' }, ...(options.email === false ? {} : { email: { type: 'string' } }) }),
      },
    },
  };
}

const diff = (base: object, revision: object) => diffOpenApi({ base, revision, clock: { now: () => now } }).changes;
const breaking = (changes: Change[]) => changes.filter((c) => c.level === 'breaking');
const row = (over: Partial<GateUsageRow>): GateUsageRow => ({
  version: 'v2',
  endpoint: 'GET /users/{id}',
  clientId: 'cl_a',
  clientName: 'Acme',
  contact: true,
  calls: 3,
  lastSeen: now - 1000,
  ...over,
});

describe('fingerprintOf', () => {
  it('is the same for the same change across prefixes, versions and unrelated edits', () => {
    const a = breaking(
      diff(doc({ prefix: '/api', version: 'v2' }), doc({ prefix: '/api', version: 'v2', email: false })),
    );
    const b = breaking(diff(doc({ prefix: '', version: 'v1' }), doc({ prefix: '', version: 'v1', email: false })));
    const c = breaking(
      diff(
        doc({ prefix: '/api', version: 'v2', extraParam: true }),
        doc({ prefix: '/api', version: 'v2', email: false, extraParam: true, posts: false }),
      ),
    );
    const removedEmail = (cs: Change[]) => cs.find((x) => x.id === 'response-property-removed')!;
    assert.match(fingerprintOf(removedEmail(a)), /^[0-9a-f]{16}$/);
    assert.equal(fingerprintOf(removedEmail(a)), fingerprintOf(removedEmail(b)));
    assert.equal(fingerprintOf(removedEmail(a)), fingerprintOf(removedEmail(c)));
  });

  it('differs between changes, and for a parameter moved by an unrelated one it stays', () => {
    const removeFields = (d: ReturnType<typeof doc>) => {
      const get = (d.paths as Record<string, { get: { parameters: Array<{ name: string }> } }>)['/api/v2/users/{id}']!
        .get;
      get.parameters = get.parameters.filter((p) => p.name !== 'fields');
      return d;
    };
    const plain = breaking(
      diff(doc({ prefix: '/api', version: 'v2' }), removeFields(doc({ prefix: '/api', version: 'v2' }))),
    );
    const shifted = breaking(
      diff(
        doc({ prefix: '/api', version: 'v2', extraParam: true }),
        removeFields(doc({ prefix: '/api', version: 'v2', extraParam: true })),
      ),
    );
    assert.equal(plain.length, 1);
    assert.equal(fingerprintOf(plain[0]!), fingerprintOf(shifted[0]!));
    const other = breaking(
      diff(doc({ prefix: '/api', version: 'v2' }), doc({ prefix: '/api', version: 'v2', posts: false })),
    );
    assert.notEqual(fingerprintOf(plain[0]!), fingerprintOf(other[0]!));
  });
});

describe('operationsReached and toUsageEndpoint', () => {
  it('names the operation, or every operation reaching a shared schema, as the document writes it', () => {
    const [removed] = breaking(
      diff(doc({ prefix: '/api', version: 'v2' }), doc({ prefix: '/api', version: 'v2', email: false })),
    );
    assert.deepEqual(operationsReached(removed!).sort(), ['GET /api/v2/users/{id}', 'PUT /api/v2/users/{id}']);
  });

  it('strips the prefix and version, or the version alone, or nothing', () => {
    assert.equal(toUsageEndpoint('GET /api/v2/users/{id}', { version: 'v2', prefix: '/api' }), 'GET /users/{id}');
    assert.equal(toUsageEndpoint('GET /v2/users', { version: 'v2', prefix: '/api' }), 'GET /users');
    assert.equal(toUsageEndpoint('GET /users', { version: 'v2', prefix: '/api' }), 'GET /users');
    assert.equal(toUsageEndpoint('GET /api/v22/users', { version: 'v2', prefix: '/api' }), 'GET /api/v22/users');
  });
});

describe('judgeChanges', () => {
  const base = doc({ prefix: '/api', version: 'v2' });
  const changes = diff(base, doc({ prefix: '/api', version: 'v2', email: false, posts: false }));
  const emailFp = fingerprintOf(changes.find((c) => c.id === 'response-property-removed')!);
  const judge = (over: Partial<Parameters<typeof judgeChanges>[0]> = {}) =>
    judgeChanges({ changes, version: 'v2', prefix: '/api', now, usage: [row({})], ...over });
  const statusOf = (judged: ReturnType<typeof judge>, id: string) => judged.find((j) => j.change.id === id)!;

  it('breaks what a client called and leaves what nobody called unaffected, naming the client', () => {
    const judged = judge({
      usage: [row({}), row({ clientId: 'cl_b', clientName: null, contact: false, calls: 2, version: 'v1' })],
    });
    const email = statusOf(judged, 'response-property-removed');
    assert.equal(email.status, 'broken');
    assert.deepEqual(email.clients, [{ id: 'cl_a', name: 'Acme', calls: 3, lastSeen: now - 1000, contact: true }]);
    assert.equal(statusOf(judged, 'endpoint-removed').status, 'unaffected');
    assert.ok(judged.every((j) => j.change.level !== 'compatible'));
  });

  it('sums a client over the operations a change reaches, and matches any parameter name', () => {
    const judged = judge({
      usage: [row({ endpoint: 'GET /users/{userId}' }), row({ endpoint: 'PUT /users/{id}', calls: 4, lastSeen: now })],
    });
    assert.deepEqual(statusOf(judged, 'response-property-removed').clients[0], {
      id: 'cl_a',
      name: 'Acme',
      calls: 7,
      lastSeen: now,
      contact: true,
    });
  });

  it('applies the threshold as calls or as a share of the operations calls', () => {
    const usage = [row({ calls: 2 }), row({ clientId: 'cl_b', calls: 98 })];
    const ids = (j: ReturnType<typeof judge>) => statusOf(j, 'response-property-removed').clients.map((c) => c.id);
    assert.deepEqual(ids(judge({ usage, threshold: { calls: 3 } })), ['cl_b']);
    assert.deepEqual(ids(judge({ usage, threshold: { percent: 5 } })), ['cl_b']);
    assert.deepEqual(ids(judge({ usage, threshold: { percent: 2 } })), ['cl_b', 'cl_a']);
    assert.equal(
      statusOf(judge({ usage, threshold: { calls: 100 } }), 'response-property-removed').status,
      'unaffected',
    );
  });

  it('leaves excluded clients out, and lists them apart', () => {
    const email = statusOf(judge({ excludeClients: ['cl_a'] }), 'response-property-removed');
    assert.equal(email.status, 'unaffected');
    assert.deepEqual(
      email.excluded.map((c) => c.id),
      ['cl_a'],
    );
  });

  it('accepts an unexpired approval or waiver, and ignores expired ones', () => {
    const approval = { fingerprint: emailFp, reason: 'agreed with Acme', approvedBy: 'ci (key_1)', expiresAt: now + 1 };
    const approved = statusOf(judge({ approvals: [approval] }), 'response-property-removed');
    assert.equal(approved.status, 'approved');
    assert.deepEqual(approved.acceptedBy, {
      kind: 'approval',
      by: 'ci (key_1)',
      reason: 'agreed with Acme',
      expiresAt: now + 1,
    });
    assert.equal(approved.clients.length, 1, 'an approved change still names who it hurts');
    const expired = statusOf(
      judge({
        approvals: [{ ...approval, expiresAt: now }],
        waivers: [{ fingerprint: emailFp, reason: 'r', expires: now - 1 }],
      }),
      'response-property-removed',
    );
    assert.equal(expired.status, 'broken');
    assert.equal(expired.expired.length, 2);
    const waived = statusOf(
      judge({ waivers: [{ fingerprint: emailFp, reason: 'known' }] }),
      'response-property-removed',
    );
    assert.deepEqual(waived.acceptedBy, { kind: 'waiver', reason: 'known', expiresAt: null });
  });

  it('without usage, every unaccepted change counts as broken', () => {
    const judged = judge({ usage: undefined, waivers: [{ fingerprint: emailFp, reason: 'known' }] });
    assert.equal(statusOf(judged, 'endpoint-removed').status, 'broken');
    assert.equal(statusOf(judged, 'response-property-removed').status, 'approved');
  });

  it('judges a document-wide change, or one naming fewer operations than reach it, by every call', () => {
    const wide: Change = {
      id: 'security-removed',
      level: 'breaking',
      location: { pointer: '/security' },
      message: 'm',
    };
    const truncated: Change = {
      id: 'x',
      level: 'risk',
      location: { pointer: '/components/schemas/A', operations: ['GET /api/v2/a'], operationCount: 40 },
      message: 'm',
    };
    const orphan: Change = { id: 'y', level: 'breaking', location: { pointer: '/components/schemas/B' }, message: 'm' };
    const judged = judgeChanges({
      changes: [wide, truncated, orphan],
      version: 'v2',
      prefix: '/api',
      now,
      usage: [row({ endpoint: 'GET /elsewhere' })],
    });
    assert.deepEqual(
      judged.map((j) => j.status),
      ['broken', 'broken', 'unaffected'],
    );
  });
});
