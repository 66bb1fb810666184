import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../clock/index.ts';
import { diffOpenApi } from '../compat/diff-openapi.ts';
import { deprecatedOperation, deprecationMembers, verdictDeprecation } from './generator-extensions.ts';

const deprecatedAt = Date.UTC(2026, 5, 1);
const sunsetAt = Date.UTC(2027, 0, 31);
const message =
  'Deprecated since 2026-06-01; sunset 2027-01-31 (removed after). Use `fullName` instead. Guide: https://docs.example/names';

describe('deprecationMembers', () => {
  it('sets deprecated, x-sunset and each generator’s extension, the messages naming the dates, the replacement and the guide', () => {
    assert.deepEqual(
      deprecationMembers({ deprecatedAt, sunsetAt, replacement: 'fullName', guide: 'https://docs.example/names' }),
      {
        deprecated: true,
        'x-sunset': '2027-01-31T00:00:00.000Z',
        'x-speakeasy-deprecation-message': message,
        'x-speakeasy-deprecation-replacement': 'fullName',
        'x-stainless-deprecation-message': message,
        'x-fern-availability': 'deprecated',
      },
    );
  });

  it('says only what it knows: no since, no replacement, no guide', () => {
    const members = deprecationMembers({ sunsetAt });
    assert.equal(members['x-speakeasy-deprecation-message'], 'Deprecated; sunset 2027-01-31 (removed after).');
    assert.equal(members['x-stainless-deprecation-message'], 'Deprecated; sunset 2027-01-31 (removed after).');
    assert.equal('x-speakeasy-deprecation-replacement' in members, false);
    assert.equal(members['x-fern-availability'], 'deprecated');
  });

  it('a successor elsewhere is named in the message, never as Speakeasy’s replacement (an operationId of this document)', () => {
    const members = deprecationMembers({ deprecatedAt, sunsetAt, successor: 'v2' });
    assert.equal(
      members['x-stainless-deprecation-message'],
      'Deprecated since 2026-06-01; sunset 2027-01-31 (removed after). Use `v2` instead.',
    );
    assert.equal('x-speakeasy-deprecation-replacement' in members, false);
  });

  it('an instant that is not midnight UTC is quoted whole', () => {
    const members = deprecationMembers({ deprecatedAt: deprecatedAt + 90 * 60_000, sunsetAt: sunsetAt + 1 });
    assert.equal(
      members['x-speakeasy-deprecation-message'],
      'Deprecated since 2026-06-01T01:30:00.000Z; sunset 2027-01-31T00:00:00.001Z (removed after).',
    );
    assert.equal(members['x-sunset'], '2027-01-31T00:00:00.001Z');
  });
});

describe('verdictDeprecation', () => {
  it('is nothing unless deprecated with a sunset', () => {
    assert.equal(verdictDeprecation({ deprecated: false }), undefined);
    assert.equal(verdictDeprecation({ deprecated: true }), undefined);
  });

  it('takes the dates, the successor version and the guide of the schedule that applies', () => {
    assert.deepEqual(
      verdictDeprecation({ deprecated: true, deprecatedAt, sunsetAt, replacement: 'v2', migrationUrl: 'https://g' }),
      { deprecatedAt, sunsetAt, successor: 'v2', guide: 'https://g' },
    );
  });
});

describe('deprecatedOperation', () => {
  const facts = { deprecatedAt, sunsetAt, replacement: 'fullName', guide: 'https://docs.example/names' };

  it('appends the message to the description once, however often the operation is marked', () => {
    const once = deprecatedOperation('List users.', facts);
    assert.equal(once.description, `List users. ${message}`);
    assert.equal(deprecatedOperation(once.description, facts).description, `List users. ${message}`);
    assert.equal(deprecatedOperation(undefined, facts).description, message);
    assert.equal(once['x-fern-availability'], 'deprecated');
  });
});

describe('versionary diff and the generators’ extensions', () => {
  // A document that gains the members on a deprecated operation, parameter and property is the same API.
  const doc = (extra: (facts: Parameters<typeof deprecationMembers>[0]) => Record<string, unknown>) => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/users': {
        get: {
          operationId: 'users.list',
          deprecated: true,
          'x-sunset': '2027-01-31T00:00:00.000Z',
          ...extra({ sunsetAt }),
          parameters: [
            {
              name: 'order',
              in: 'query',
              schema: { type: 'string' },
              deprecated: true,
              'x-sunset': '2027-01-31T00:00:00.000Z',
              ...extra({ sunsetAt, replacement: 'sort' }),
            },
            { name: 'sort', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: 'object',
          properties: {
            nickname: {
              type: 'string',
              deprecated: true,
              'x-sunset': '2027-01-31T00:00:00.000Z',
              ...extra({ sunsetAt, replacement: 'fullName' }),
            },
            fullName: { type: 'string' },
          },
        },
      },
    },
  });

  it('counts none of them as a change, either way', () => {
    const clock = createFixedClock(Date.UTC(2026, 6, 1));
    const plain = doc(() => ({}));
    const marked = doc(deprecationMembers);
    assert.deepEqual(diffOpenApi({ base: plain, revision: marked, clock }).changes, []);
    assert.deepEqual(diffOpenApi({ base: marked, revision: plain, clock }).changes, []);
  });
});
