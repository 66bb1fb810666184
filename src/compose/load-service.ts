import { readFileSync } from 'node:fs';
import type { startService } from './start-service.ts';

/**
 * Import the reference service's composition, which needs packages that a library install leaves
 * out (database drivers, Redis, mail, the portal's renderer: optional peer dependencies of the
 * package). When one is missing, fail with the `npm install` line that adds all of them, rather
 * than Node's bare `ERR_MODULE_NOT_FOUND`.
 */
export async function loadStartService(): Promise<typeof startService> {
  return (await importServiceModule(() => import('./start-service.ts'))).startService;
}

/**
 * Import a module of the service (storage, the app) with {@link loadStartService}'s message for a
 * missing package; the CLI's commands that open a database go through it.
 */
export async function importServiceModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = /Cannot find package '([^']+)'/.exec(String((error as Error)?.message))?.[1];
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw error;
    throw Object.assign(
      new Error(
        `the reference service needs the package "${missing}", which installing versionary as a library leaves out. Install the service's packages with:\n\n  npm install ${servicePackages().join(' ')}\n`,
      ),
      { code: 'SERVICE_PACKAGES_MISSING' },
    );
  }
}

/** The optional peer dependencies, each with the range the package was tested with. */
function servicePackages(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  return Object.entries(manifest.peerDependencies ?? {})
    .filter(([name]) => manifest.peerDependenciesMeta?.[name]?.optional)
    .map(([name, range]) => `${name}@"${range}"`);
}
