// @ts-check
import tseslint from 'typescript-eslint';

const coreMessage =
  'core is pure: no framework, no I/O, no Node built-ins. Keep it portable and testable at any instant.';

const storageLibraries = {
  group: ['kysely', 'libsql', 'pg', 'ioredis'],
  message: 'Storage libraries belong in src/storage behind the ports.',
};

/**
 * The loop's parts from the bottom up, in the order they are registered: a part may import the
 * parts before it (the ones its `dependencies` name, or that those need), never one after it.
 * `loop/host`, beneath them all, imports none: it installs whatever parts it is given.
 */
const loopParts = ['storage', 'usage', 'lifecycle', 'access', 'notices', 'portal', 'management'];

/** The files above the parts: the preset, and the lists and types it makes of every part. */
const loopTop = ['index.ts', 'preset.ts', 'product.ts', 'settings.ts', 'steps.ts', 'options-schema.ts'];

/** What a file under `src/loop/<folder>/` may not import, `toLoop` being its path to `src/loop/`. */
function loopFolderPatterns(folder, toLoop) {
  const above = folder === 'host' ? loopParts : loopParts.slice(loopParts.indexOf(folder) + 1);
  const top = {
    group: loopTop.map((file) => `${toLoop}${file}`),
    message:
      'The preset and its lists (steps, settings, options, the product) name every part: beneath them, a part or the host that imports one imports the parts above it.',
  };
  if (above.length === 0) return [top];
  const message =
    folder === 'host'
      ? 'loop/host knows no part: it installs the parts it is given (`defineLoopPart`); a part hands it what it needs as values (its settings section, the paths it owns, `provideToLaterParts`).'
      : `The loop's parts point down only (${loopParts.join(' ◄ ')}): ${folder} may import the parts before it, not ${above.join(', ')}. Hand a value down instead (\`provideToLaterParts\`, an argument), or move what both use beneath them.`;
  return [{ group: above.map((part) => `${toLoop}${part}/**`), message }, top];
}

/** The rules of src/loop, src/kernel, src/reference and src/gateway, one block per folder depth. */
function layerRules() {
  const blocks = [];
  for (const depth of [1, 2, 3]) {
    const up = '../'.repeat(depth);
    const dirs = '*/'.repeat(depth - 1);
    const adapters = {
      group: [`${up}storage/**`],
      message: "Parts declare ports; only the loop's storage part and src/compose pick a storage adapter.",
    };
    const product = {
      group: [`${up}reference/**`, `${up}gateway/**`, `${up}compose/**`, `${up}cli/**`],
      message:
        'The loop and the kernel are the library: the reference service and the gateway build on them, never the reverse.',
    };
    const apps = {
      group: [`${up}compose/**`, `${up}cli/**`],
      message: 'The reference service and the gateway are built from the loop; only src/compose starts them.',
    };
    const parts = {
      group: [`${up}loop/**`],
      message:
        'The kernel and the storage adapters sit beneath the parts: what they share with a part is a port in src/kernel/ports.',
    };
    // One block per folder of the loop: a later block's options replace an earlier one's, so each
    // names the layers' patterns with its own.
    const toLoop = '../'.repeat(depth - 1);
    const loopFolders =
      depth === 1
        ? [{ files: ['src/loop/*.ts'], patterns: [adapters, product, storageLibraries] }]
        : ['host', ...loopParts.filter((part) => part !== 'storage')].map((folder) => ({
            files: [`src/loop/${folder}/${'*/'.repeat(depth - 2)}*.ts`],
            patterns: [adapters, product, storageLibraries, ...loopFolderPatterns(folder, toLoop)],
          }));
    for (const { files, patterns } of loopFolders)
      blocks.push({
        files,
        ignores: ['src/**/*.test.ts'],
        rules: { 'no-restricted-imports': ['error', { patterns }] },
      });
    blocks.push(
      {
        // Tests included: a kernel test that needs a part belongs with the part.
        files: [`src/kernel/${dirs}*.ts`],
        rules: {
          'no-restricted-imports': ['error', { patterns: [adapters, product, parts, storageLibraries] }],
        },
      },
      {
        files: [`src/loop/storage/${dirs}*.ts`],
        ignores: ['src/**/*.test.ts'],
        rules: {
          'no-restricted-imports': [
            'error',
            // A file of the storage part is one folder deeper than the block's depth says.
            { patterns: [product, ...loopFolderPatterns('storage', '../'.repeat(depth))] },
          ],
        },
      },
      {
        files: [`src/reference/${dirs}*.ts`, `src/gateway/${dirs}*.ts`],
        ignores: ['src/**/*.test.ts'],
        rules: { 'no-restricted-imports': ['error', { patterns: [adapters, apps, storageLibraries] }] },
      },
    );
  }
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'data/**',
      'bench/results/**',
      'dist/**',
      'examples/*/dist/**',
      'examples/*/node_modules/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    // ESLint itself requires this file's default export.
    ignores: ['eslint.config.js'],
    rules: {
      'max-params': ['error', 3],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Named exports only: they keep imports greppable and renames safe.',
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The njs module's functions are rendered by their source text for njs 0.7.9, which has no
    // destructuring: they take positional arguments, and name a caught error they do not read.
    files: ['src/gateway/nginx/njs/*.ts'],
    rules: {
      'max-params': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify/*', '@fastify/*', 'kysely', 'libsql', 'pg', 'ioredis', 'pino'],
              message: coreMessage,
            },
            { group: ['node:*', 'fs', 'path', 'http', 'crypto'], message: coreMessage },
            {
              group: [
                '**/http/**',
                '**/kernel/**',
                '**/loop/**',
                '**/reference/**',
                '**/gateway/**',
                '**/compose/**',
                '**/storage/**',
                '**/cli/**',
              ],
              message: 'core must not depend on outer layers: dependencies point inwards.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: coreMessage },
        { name: 'Date', message: 'core reads time only through an injected Clock.' },
      ],
    },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/kernel/**',
                '**/loop/**',
                '**/reference/**',
                '**/gateway/**',
                '**/compose/**',
                '**/storage/**',
                '**/cli/**',
              ],
              message: 'The Fastify adapter depends on core only; the loop composes it, not the reverse.',
            },
            {
              group: ['kysely', 'libsql', 'pg', 'ioredis'],
              message: 'The adapter knows no storage: the service wires ports to adapters.',
            },
          ],
        },
      ],
    },
  },
  // The loop, the kernel beneath it, the reference service and the gateway declare ports; only the
  // loop's storage part and the composition root (src/compose) open a storage adapter. Globs do not
  // resolve paths, and the loop has a part named storage too, so the adapters' folder is matched
  // by its depth from each file.
  ...layerRules(),
  {
    files: ['src/storage/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/cli/**', 'fastify', '@fastify/*'],
              message: 'Storage adapters implement service ports and know nothing of HTTP.',
            },
            {
              group: ['**/loop/**', '**/reference/**', '**/gateway/**', '**/compose/**'],
              message: 'Storage adapters implement the ports of src/kernel/ports and import no part or product.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.ts'],
    ignores: ['src/client/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'fastify',
                'fastify/*',
                '@fastify/*',
                'fastify-plugin',
                'kysely',
                'libsql',
                'pg',
                'ioredis',
                'pino',
              ],
              message: 'The client runs in any app that calls a Versionary-style API: fetch only, no server libraries.',
            },
            {
              group: [
                '**/http/**',
                '**/kernel/**',
                '**/loop/**',
                '**/reference/**',
                '**/gateway/**',
                '**/storage/**',
                '**/compose/**',
                '**/cli/**',
              ],
              message: 'The client depends on nothing but core types: it ships to consumers, not to the service.',
            },
            { group: ['node:*'], message: 'The client runs in browsers and edge runtimes too: web APIs only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', 'fastify', '@fastify/*'],
              message:
                'The CLI depends on core (and the service entry for serve), never on the HTTP adapter internals.',
            },
          ],
        },
      ],
    },
  },
);
