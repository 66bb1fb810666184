import type { FastifyInstance } from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import type { Storage } from '../../src/kernel/ports/index.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { testAdminKey, testEpoch } from './test-app.ts';

/** The element deprecations of these tests: a field and a query parameter of v2, which stays active. */
export const elements: ElementDeprecation[] = [
  {
    kind: 'field',
    version: 'v2',
    element: 'UserInput.nickname',
    schema: 'UserInput',
    field: 'nickname',
    deprecatedAt: Date.UTC(2026, 0, 1),
    sunsetAt: Date.UTC(2027, 0, 1),
    replacement: 'displayName',
  },
  {
    kind: 'parameter',
    version: 'v2',
    element: 'GET /users?fields',
    method: 'GET',
    path: '/users',
    parameter: 'fields',
    deprecatedAt: Date.UTC(2026, 0, 10),
    sunsetAt: Date.UTC(2026, 9, 1),
    migrationUrl: 'https://example.com/sort',
  },
];

/**
 * The service over in-memory SQLite with {@link elements} set in its lifecycle settings, the
 * shape the config parser gives `fieldDeprecations` and `parameterDeprecations` (merged apart).
 */
export async function startWithElements(): Promise<{
  app: FastifyInstance;
  storage: Storage;
  clock: ReturnType<typeof createFixedClock>;
  close(): Promise<void>;
}> {
  const config = loadConfig({
    env: {
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      VERSIONARY_ADMIN_KEY: testAdminKey,
      VERSIONARY_CONFIG: '/c.json',
    },
    readFile: () => JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }),
  });
  config.settings.lifecycle.elementDeprecations = elements;
  const storage = await openSqliteStorage({ path: ':memory:' });
  const clock = createFixedClock(testEpoch);
  const app = await buildApp({ product: referenceProduct(), config, storage, clock });
  await app.ready();
  return {
    app,
    storage,
    clock,
    close: async () => {
      await app.close();
      await storage.close();
    },
  };
}
