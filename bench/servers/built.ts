/**
 * The bench servers run the compiled package in `dist/`, as `npm start` and an installed
 * `versionary` do, not the sources through tsx: tsx's transform adds a `__name` wrapper to
 * every closure a request creates, which the shipped code does not pay. Types still come from
 * the sources, so the benchmark type-checks without a build.
 *
 * @example
 * ```ts
 * const { buildApp } = await built<typeof import('../../src/compose/build-app.ts')>('compose/build-app');
 * ```
 */
export async function built<T>(modulePath: string): Promise<T> {
  const url = new URL(`../../dist/${modulePath}.js`, import.meta.url);
  try {
    return (await import(url.href)) as T;
  } catch (error) {
    throw new Error(`bench: cannot load ${url.pathname}; run \`npm run build\` first (npm run bench does)`, {
      cause: error,
    });
  }
}
