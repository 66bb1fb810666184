import type { startService } from './start-service.ts';
import { assertPeers, peersFor, type PeerSurface } from '../loop/storage/peer-packages.ts';

/** Import the service's composition, after naming every optional peer it needs and lacks at once. */
export async function loadStartService(
  env: Record<string, string | undefined>,
  surface: PeerSurface = 'service',
): Promise<typeof startService> {
  assertPeers(peersFor({ env, surface }));
  return (await importServiceModule(() => import('./start-service.ts'))).startService;
}

/** Import a module of the service; a missing package gets the install message, not `ERR_MODULE_NOT_FOUND`. */
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
