import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultSqliteDriver } from '../../src/storage/sqlite/default-driver.ts';
import { packLibrary, repo, run } from './run.ts';

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function exec(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// A team that wants versioned routing installs `versionary` and `fastify`, and nothing of the
// reference service: no database drivers, no mail client, no docs renderer.
test(
  'a fresh app with only versionary and fastify gets the library, the CLI, and a clear message for the service',
  { timeout: 300_000 },
  async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-lean-'));
    try {
      const tarball = await packLibrary(tmp);
      const app = join(tmp, 'app');
      await run('mkdir', ['-p', app], { cwd: tmp });
      writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({ name: 'lean', version: '1.0.0', private: true, type: 'module' }),
      );
      const fastify = (
        JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(repo, 'package.json'), 'utf8'))) as {
          peerDependencies: Record<string, string>;
        }
      ).peerDependencies.fastify!;
      await run(
        'npm',
        ['install', tarball, `fastify@${fastify}`, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
        { cwd: app },
      );
      const installed = readdirSync(join(app, 'node_modules')).flatMap((name) =>
        name.startsWith('@') ? readdirSync(join(app, 'node_modules', name)).map((n) => `${name}/${n}`) : [name],
      );
      for (const heavy of ['libsql', 'pg', 'ioredis', 'nodemailer', 'swagger-ui-dist', 'kysely', 'preact'])
        assert.ok(!installed.includes(heavy), `${heavy} is not installed`);
      const megabytes = sizeOf(join(app, 'node_modules')) / 1024 / 1024;
      t.diagnostic(`node_modules of versionary + fastify: ${megabytes.toFixed(1)} MB, ${installed.length} packages`);

      // The library and its Fastify plugin load and serve.
      writeFileSync(
        join(app, 'main.js'),
        `
      import Fastify from 'fastify';
      import { defineVersions } from 'versionary';
      import { versionary } from 'versionary/fastify';
      console.log(typeof Fastify, typeof defineVersions, typeof versionary);
    `,
      );
      const library = await exec(['main.js'], app);
      assert.equal(library.code, 0, library.stderr);
      assert.equal(library.stdout.trim(), 'function function function');

      // The CLI's file commands run without the service's packages.
      const help = await exec(['node_modules/versionary/bin/versionary.js', '--help'], app);
      assert.equal(help.code, 0, help.stderr);

      // The service says what to install instead of a bare ERR_MODULE_NOT_FOUND.
      const serve = await exec(['node_modules/versionary/bin/versionary.js', 'serve'], app);
      assert.notEqual(serve.code, 0);
      // Every package of the default (SQLite) configuration at once, and none it does not use.
      // libsql only where Node's own node:sqlite is not the default driver (Node 24.15+ has it).
      if (defaultSqliteDriver() === 'libsql') {
        assert.match(serve.stderr, /needs \d+ package\(s\) that are not installed, for [^:]+: kysely, .*libsql\./);
        assert.match(serve.stderr, /npm install kysely@.*libsql@/);
      } else {
        assert.match(serve.stderr, /needs \d+ package\(s\) that are not installed, for [^:]+: kysely, /);
        assert.doesNotMatch(serve.stderr, /libsql@/, 'node:sqlite needs no package');
      }
      assert.doesNotMatch(serve.stderr, /\b(pg|ioredis|nodemailer)@/, 'nothing the configuration does not use');
      assert.doesNotMatch(serve.stderr, /ERR_MODULE_NOT_FOUND|at .*\.js:\d+/, 'no stack trace');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
