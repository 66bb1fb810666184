import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDeprecationManifest, type DeprecationManifestSource } from './deprecation-manifest.ts';
import type { ElementDeprecation } from './element-deprecation.ts';
import type { LifecycleVersion } from './schedule.ts';
import { at, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const versions: LifecycleVersion[] = [
  { name: 'v2', releasedAt: at('2026-03-02'), migrationUrl: '/api/versions/v2/migration-guide' },
  {
    name: 'v1',
    releasedAt: at('2025-01-15'),
    schedule: scheduleOf({ deprecatedAt: '2026-06-01', sunsetAt: '2026-12-01' }),
    migrationUrl: '/api/versions/v1/migration-guide',
  },
];

const elements: ElementDeprecation[] = [
  {
    kind: 'parameter',
    version: 'v2',
    element: 'GET /users/{id}?fields',
    method: 'get',
    path: '/users/{id}',
    parameter: 'fields',
    deprecatedAt: at('2026-07-01'),
    sunsetAt: at('2027-07-01'),
  },
  {
    kind: 'field',
    version: 'v2',
    element: 'User.nickname',
    schema: 'User',
    resource: 'User',
    field: 'nickname',
    deprecatedAt: at('2026-07-01'),
    sunsetAt: at('2027-01-01'),
    replacement: 'displayName',
    migrationUrl: 'https://docs.example/nickname',
  },
];

const source: DeprecationManifestSource = {
  prefix: '/api',
  versions,
  endpoints: [
    {
      version: 'v2',
      method: 'DELETE',
      path: '/users/{id}',
      deprecatedAt: at('2026-08-01'),
      sunsetAt: at('2027-02-01'),
      migrationUrl: null,
    },
  ],
  elements,
};

describe('buildDeprecationManifest', () => {
  it('lists the version, the endpoint, the field and the parameter, each with its dates, replacement and guide', () => {
    assert.deepEqual(buildDeprecationManifest(source), {
      deprecations: [
        {
          kind: 'version',
          name: 'v1',
          version: 'v1',
          href: '/api/v1',
          deprecation: '2026-06-01T00:00:00.000Z',
          sunset: '2026-12-01T00:00:00.000Z',
          replacement: 'v2',
          guide: '/api/versions/v1/migration-guide',
        },
        {
          kind: 'endpoint',
          name: 'DELETE /users/{id}',
          version: 'v2',
          method: 'DELETE',
          path: '/users/{id}',
          deprecation: '2026-08-01T00:00:00.000Z',
          sunset: '2027-02-01T00:00:00.000Z',
          replacement: null,
          guide: '/api/versions/v2/migration-guide',
        },
        {
          kind: 'field',
          name: 'User.nickname',
          version: 'v2',
          in: 'body',
          schema: 'User',
          member: 'nickname',
          pointer: '/nickname',
          deprecation: '2026-07-01T00:00:00.000Z',
          sunset: '2027-01-01T00:00:00.000Z',
          replacement: 'User.displayName',
          guide: 'https://docs.example/nickname',
        },
        {
          kind: 'parameter',
          name: 'GET /users/{id}?fields',
          version: 'v2',
          in: 'query',
          method: 'GET',
          path: '/users/{id}',
          member: 'fields',
          deprecation: '2026-07-01T00:00:00.000Z',
          sunset: '2027-07-01T00:00:00.000Z',
          replacement: null,
          guide: '/api/versions/v2/migration-guide',
        },
      ],
    });
  });

  it('is empty, not absent, when nothing is deprecated', () => {
    assert.deepEqual(
      buildDeprecationManifest({ prefix: '/api', versions: [versions[0]!], endpoints: [], elements: [] }),
      {
        deprecations: [],
      },
    );
  });

  it('gives the same bytes whatever order the store lists endpoints in', () => {
    const endpoint = (method: string, path: string) => ({
      version: 'v2',
      method,
      path,
      deprecatedAt: at('2026-08-01'),
      sunsetAt: at('2027-02-01'),
    });
    const endpoints = [endpoint('GET', '/posts'), endpoint('DELETE', '/users/{id}'), endpoint('GET', '/a')];
    const one = JSON.stringify(buildDeprecationManifest({ ...source, endpoints }));
    const other = JSON.stringify(buildDeprecationManifest({ ...source, endpoints: [...endpoints].reverse() }));
    assert.equal(one, other);
    const names = buildDeprecationManifest({ ...source, endpoints }).deprecations.map((d) => d.name);
    assert.deepEqual(names.slice(1, 4), ['DELETE /users/{id}', 'GET /a', 'GET /posts']);
  });

  it('escapes a member name into its JSON pointer (RFC 6901) and keeps the schemas the config names', () => {
    const field: ElementDeprecation = {
      kind: 'field',
      version: 'v2',
      element: 'User.a/b~c',
      schema: 'User',
      schemas: ['User', 'UserInput'],
      field: 'a/b~c',
      deprecatedAt: at('2026-07-01'),
      sunsetAt: at('2027-01-01'),
    };
    const [entry] = buildDeprecationManifest({
      ...source,
      versions: [versions[0]!],
      endpoints: [],
      elements: [field],
    }).deprecations;
    assert.equal(entry!.kind, 'field');
    assert.equal((entry as { pointer: string }).pointer, '/a~1b~0c');
    assert.deepEqual((entry as { schemas: string[] }).schemas, ['User', 'UserInput']);
  });

  it('keeps an entry past its sunset: the manifest reads no clock', () => {
    const removed: LifecycleVersion = {
      ...versions[1]!,
      schedule: scheduleOf({ deprecatedAt: '2020-01-01', sunsetAt: '2020-07-01', removed: true }),
    };
    const manifest = buildDeprecationManifest({ ...source, versions: [versions[0]!, removed] });
    assert.equal(manifest.deprecations[0]!.sunset, '2020-07-01T00:00:00.000Z');
  });
});
