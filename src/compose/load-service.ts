import type { startService } from './start-service.ts';
import { assertPeers, peersFor, type PeerSurface } from '../loop/storage/peer-packages.ts';

/**
 * Import the reference service's composition, which needs packages that a library install leaves
 * out (database drivers, Redis, mail, the portal's renderer: optional peer dependencies of the
 * package). First, every package that this environment's configuration needs and lacks is named
 * at once, with the `npm install` line that adds them (`peersFor`): `pg` only for PostgreSQL,
 * `ioredis` only with Redis, `nodemailer` only for SMTP.
 */
export async function loadStartService(
  env: Record<string, string | undefined>,
  surface: PeerSurface = 'service',
): Promise<typeof startService> {
  assertPeers(peersFor({ env, surface }));
  return (await importServiceModule(() => import('./start-service.ts'))).startService;
}

/**
 * Import a module of the service (storage, the app); with `env`, after checking the packages its
 * configuration needs, as {@link loadStartService} does. A package missing all the same (one no
 * configuration names) gets the same message rather than Node's bare `ERR_MODULE_NOT_FOUND`.
 */
export async function importServiceModule<T>(
  load: () => Promise<T>,
  env?: Record<string, string | undefined>,
): Promise<T> {
  if (env) assertPeers(peersFor({ env, surface: 'service' }));
  try {
    return await load();
  } catch (error) {
    const missing = /Cannot find package '([^']+)'/.exec(String((error as Error)?.message))?.[1];
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw error;
    assertPeers([{ name: missing, for: 'the service' }], () => false);
    throw error;
  }
}
