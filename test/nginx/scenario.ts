import type { GatewayOptions } from '../support/gateway.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The admin key's header: a valid key for the API. */
export const withKey = { authorization: `Bearer ${gatewayAdminKey}` };

/**
 * The lifecycle both the gateway and nginx are started with: v1 deprecated with 10 days left (so
 * the Warning shows), v2's `GET /echo` deprecated, `GET /users?page` deprecated and `?offset` past
 * its sunset, and a brownout of v1's `GET /slow` now. `removedV1` puts v1 past its sunset.
 */
export function scenario(options: { removedV1?: boolean; rateLimit?: number } = {}): Omit<GatewayOptions, 'upstream'> {
  const now = Date.now();
  return {
    editDocument: (version, document) => {
      if (version !== 'v2') return;
      const query = (name: string) => ({ name, in: 'query', schema: { type: 'string' } });
      const users = (document.paths as Record<string, { get: { parameters?: unknown[] } }>)['/api/v2/users']!;
      users.get.parameters = [query('page'), query('cursor'), query('offset')];
    },
    file: {
      rateLimit: { max: options.rateLimit ?? 1000, windowSeconds: 60 },
      versions: {
        v1: options.removedV1
          ? { deprecatedAt: iso(now - 400 * day), sunsetAt: iso(now - day), replacement: 'v2' }
          : { deprecatedAt: iso(now - 200 * day), sunsetAt: iso(now + 10 * day), replacement: 'v2' },
      },
      endpointDeprecations: [
        { version: 'v2', method: 'GET', path: '/echo', deprecatedAt: iso(now - day), sunsetAt: iso(now + 200 * day) },
      ],
      parameterDeprecations: [
        {
          version: 'v2',
          method: 'GET',
          path: '/users',
          parameter: 'page',
          deprecatedAt: iso(now - day),
          sunsetAt: iso(now + 200 * day),
          replacement: 'cursor',
        },
        {
          version: 'v2',
          method: 'GET',
          path: '/users',
          parameter: 'offset',
          deprecatedAt: iso(now - 400 * day),
          sunsetAt: iso(now - day),
          replacement: 'cursor',
        },
      ],
      notices: {
        brownouts: [
          { version: 'v1', endpoint: 'GET /slow', startsAt: iso(now - 60_000), endsAt: iso(now + 3_600_000) },
        ],
      },
    },
  };
}
