import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { packLibrary, repo, run } from './run.ts';

const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'];

// Installing the packed tarball prints no warning of ours: no install script for npm 11 to ask
// about (`install-scripts … not yet covered by allowScripts`), and no engine the Node line misses.
test('installing the packed tarball warns of nothing of ours', { timeout: 300_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-install-warnings-'));
  try {
    const tarball = await packLibrary(tmp);
    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const { stdout, stderr } = await run(
      'npm',
      ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'warn'],
      { cwd: app },
    );
    const output = stdout + stderr;
    assert.doesNotMatch(output, /install-scripts|allowScripts/, output);
    assert.doesNotMatch(output, /EBADENGINE[^]*versionary@/, output);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/versionary/package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.deepEqual(
      installScripts.filter((s) => s in installed.scripts),
      [],
      'no script npm runs or asks about at install',
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// The repository still builds dist/ on `npm ci` and `npm install`, through `postprepare`, which
// npm runs for the project itself even without a `prepare`; `npm pack` builds through `prepack`.
test('npm runs postprepare on install of the project itself, and the repository builds there', async () => {
  const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  assert.equal(scripts.postprepare, 'npm run build');
  assert.equal(scripts.prepack, 'npm run build');
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-postprepare-'));
  try {
    writeFileSync(
      join(tmp, 'package.json'),
      JSON.stringify({
        name: 'probe',
        version: '1.0.0',
        private: true,
        scripts: { postprepare: `node -e "require('node:fs').writeFileSync('built', '')"` },
      }),
    );
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: tmp });
    assert.ok(existsSync(join(tmp, 'built')), 'npm install ran postprepare');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// npm 11 lists, after every install, the dependencies whose install scripts package.json's
// `allowScripts` has not reviewed (and will block them by default later; `.ci/run` already fails
// on them with `npm ci --strict-allow-scripts`). The repository reviews each one: esbuild's
// postinstall checks its platform binary (tsx needs it), protobufjs's is a version-scheme check
// with nothing to check here, and @scarf/scarf's reports the download to Scarf.
test("every install script among the repository's dependencies is reviewed in allowScripts", async (t) => {
  const { allowScripts } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    allowScripts: Record<string, boolean>;
  };
  assert.deepEqual(allowScripts, { '@scarf/scarf': false, protobufjs: false, esbuild: true });
  // npm 10 (bundled with Node 22) has neither the field nor the command: nothing to warn of there.
  const [major = 0, minor = 0] = (await run('npm', ['--version'], { cwd: repo })).stdout.trim().split('.').map(Number);
  if (major < 11 || (major === 11 && minor < 16)) return t.skip(`npm ${major}.${minor} has no allowScripts (11.16+)`);
  const { stdout } = await run('npm', ['install-scripts', 'ls', '--json'], { cwd: repo });
  const pending = (JSON.parse(stdout) as { allowScripts: Array<{ name: string }> }).allowScripts;
  assert.deepEqual(
    pending.map((p) => p.name),
    [],
    'review each with `npm install-scripts approve <pkg>` or `npm install-scripts deny <pkg>`, and say why in the README',
  );
});
