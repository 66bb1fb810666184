// @ts-check
import tseslint from 'typescript-eslint';

const coreMessage =
  'core is pure: no framework, no I/O, no Node built-ins. Keep it portable and testable at any instant.';

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
              group: ['**/http/**', '**/service/**', '**/storage/**', '**/cli/**'],
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
              group: ['**/service/**', '**/storage/**', '**/cli/**'],
              message: 'The Fastify adapter depends on core only; the service composes it, not the reverse.',
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
  {
    files: ['src/service/**/*.ts'],
    ignores: ['src/service/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/storage/**'],
              message:
                'The service declares ports; only the composition root (src/compose), above the service, picks a storage adapter.',
            },
            {
              group: ['kysely', 'libsql', 'pg', 'ioredis'],
              message: 'Storage libraries belong in src/storage behind the service ports.',
            },
          ],
        },
      ],
    },
  },
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
              group: ['**/http/**', '**/service/**', '**/storage/**', '**/compose/**', '**/cli/**'],
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
