import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';

/**
 * A field and a query parameter of the service's v2 deprecated on their own, parsed, as the
 * config's `fieldDeprecations` and `parameterDeprecations` would give them.
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
      element: 'GET /users?cursor',
      method: 'GET',
      path: '/users',
      parameter: 'cursor',
      ...dates,
    },
  ];
}
