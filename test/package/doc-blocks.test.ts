import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { docBlocks, runnableLangs, type DocBlock } from '../support/doc-blocks.ts';
import { eventually } from '../support/service-process.ts';
import { installTarballApp, sqliteOnlyPeers } from '../support/tarball-app.ts';
import { repo } from './run.ts';

// Rust's doctests for the docs a newcomer follows: every sh, js and ts block that a user pastes
// runs as written, in order, in a fresh directory where the packed tarball is installed (for
// SQLite, as the docs' install lines say). A block marked `no-run` is not meant to run; `file=x`
// is saved as x; `background` is left running (a server), and `ready=<url>` is awaited.
const docs = ['docs/loop.md', 'docs/gateway.md', 'README.md'];
const blockTimeoutMs = 60_000;

// `npm install …` in a doc: the directory already holds the tarball's install, so check that every
// package the line names is there (a line naming one that the SQLite install lacks fails). The
// package itself is named as the tarball `npm pack` writes (it is not on the registry yet), by
// the name and version of this package.json: a doc naming another version fails.
const npmShim = `#!/bin/sh
if [ "$1" = "install" ]; then
  shift
  for arg in "$@"; do
    case "$arg" in
      -*) continue ;;
      versionary | versionary@*) echo "doc test: $arg is not on the registry yet; name ./$DOC_TARBALL" >&2; exit 1 ;;
      *.tgz)
        [ "$arg" = "./$DOC_TARBALL" ] || { echo "doc test: $arg is not ./$DOC_TARBALL, the tarball npm pack writes" >&2; exit 1; }
        arg=versionary ;;
    esac
    name=$(printf '%s' "$arg" | sed -E 's/^(@?[^@]+).*/\\1/')
    [ -f "node_modules/$name/package.json" ] || { echo "doc test: $name is not in the SQLite install" >&2; exit 1; }
  done
  exit 0
fi
exec "$REAL_NPM" "$@"
`;

function runShell(code: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
  // set -a: every variable a block assigns is exported, and saved for the next block.
  const script = `set -a; [ -f .doc-env ] && . ./.doc-env; set -eo pipefail\n${code}\nexport -p > .doc-env\n`;
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd: options.cwd, env: options.env, timeout: blockTimeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

function where(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}

test(
  'every code block the README and docs give to paste runs as written against the tarball',
  { timeout: 900_000 },
  async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-doc-blocks-'));
    const background: ChildProcess[] = [];
    try {
      const prepared = await installTarballApp(tmp, sqliteOnlyPeers);
      const shim = join(tmp, 'shim');
      mkdirSync(shim);
      writeFileSync(join(shim, 'npm'), npmShim);
      chmodSync(join(shim, 'npm'), 0o755);
      const realNpm = await new Promise<string>((resolve) =>
        execFile('sh', ['-c', 'command -v npm'], (_e, out) => resolve(out.trim())),
      );
      const env: NodeJS.ProcessEnv = Object.fromEntries(
        Object.entries(process.env).filter(
          ([name]) => !/^(VERSIONARY_|DATABASE_URL$|PORT$|HOST$|NODE_OPTIONS$)/.test(name),
        ),
      );
      const { name, version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      Object.assign(env, {
        PATH: `${shim}:${process.env.PATH}`,
        REAL_NPM: realNpm,
        DOC_TARBALL: `${name}-${version}.tgz`,
        npm_config_offline: 'true',
      });

      for (const doc of docs) {
        await t.test(doc, async () => {
          const dir = join(tmp, basename(doc, '.md'));
          mkdirSync(dir);
          symlinkSync(join(prepared, 'node_modules'), join(dir, 'node_modules'));
          writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc', private: true, type: 'module' }));
          const started: ChildProcess[] = [];
          try {
            let ran = 0;
            for (const block of docBlocks(join(repo, doc)).map((b) => ({ ...b, file: doc }))) {
              if (block.attributes['no-run']) continue;
              if (typeof block.attributes.file === 'string') {
                writeFileSync(join(dir, block.attributes.file), `${block.code}\n`);
                continue;
              }
              if (!runnableLangs.includes(block.lang)) continue;
              ran++;
              if (block.lang === 'ts') assert.fail(`${where(block)}: a ts block is saved (file=…) or marked no-run`);
              if (block.lang === 'js' || block.lang === 'mjs') {
                const file = `.block-${block.line}.mjs`;
                writeFileSync(join(dir, file), block.code);
                const r = await runShell(`node ${file}`, { cwd: dir, env });
                assert.equal(r.code, 0, `${where(block)} failed:\n${r.output}`);
                continue;
              }
              if (block.attributes.background) {
                const child = spawn('bash', ['-c', `set -a; [ -f .doc-env ] && . ./.doc-env; set +a\n${block.code}`], {
                  cwd: dir,
                  env,
                  detached: true,
                  stdio: ['ignore', 'pipe', 'pipe'],
                });
                let output = '';
                child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
                child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
                started.push(child);
                background.push(child);
                const ready = block.attributes.ready;
                if (typeof ready === 'string')
                  await eventually(async () => (await fetch(ready)).status === 200, blockTimeoutMs).catch(() => {
                    assert.fail(`${where(block)} never answered ${ready}:\n${output}`);
                  });
                continue;
              }
              const r = await runShell(block.code, { cwd: dir, env });
              assert.equal(r.code, 0, `${where(block)} failed (exit ${r.code}):\n${r.output}`);
            }
            t.diagnostic(`${doc}: ${ran} block(s) run`);
          } finally {
            for (const child of started) stopGroup(child);
          }
        });
      }
    } finally {
      for (const child of background) stopGroup(child);
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);

function stopGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
