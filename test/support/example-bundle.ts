import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { VersionBundle } from '../../src/core/versions/index.ts';

const repo = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * The example app's bundle, built from this checkout's sources: its `import … from 'versionary'`
 * is resolved to `src/index.ts` (not the compiled `dist/` a self-reference would load), so tests
 * of the example's version changes see the code under test.
 */
export async function loadExampleBundle(): Promise<VersionBundle> {
  const examples = pathToFileURL(join(repo, 'examples')).href;
  const target = pathToFileURL(join(repo, 'src/index.ts')).href;
  const hooks = `export async function resolve(specifier, context, next) {
    if (specifier === 'versionary' && context.parentURL?.startsWith(${JSON.stringify(examples)})) return next(${JSON.stringify(target)}, context);
    return next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const api = (await import(pathToFileURL(join(repo, 'examples/fastify-app/src/api.ts')).href)) as {
    bundle: VersionBundle;
  };
  return api.bundle;
}
