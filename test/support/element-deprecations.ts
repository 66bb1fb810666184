import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';

/**
 * A field and a query parameter of the service's v2 deprecated on their own, parsed, as the
 * config's `fieldDeprecations` and `parameterDeprecations` would give them. The parameter is
 * `fields`: `limit` and `cursor` ride in the service's own next-page links, so they cannot be.
 */
export function elementsOfV2(dates: { deprecatedAt: number; sunsetAt: number }): ElementDeprecation[] {
  return [
    {
      kind: 'field',
      version: 'v2',
      element: 'User.nickname',
      schema: 'User',
      field: 'nickname',
      replacement: 'name',
      migrationUrl: 'https://docs.example/nickname',
      ...dates,
    },
    {
      kind: 'parameter',
      version: 'v2',
      element: 'GET /users?fields',
      method: 'GET',
      path: '/users',
      parameter: 'fields',
      ...dates,
    },
  ];
}
