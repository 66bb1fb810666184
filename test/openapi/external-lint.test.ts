import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectRoot, runTool } from '../support/contract-tools.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { fetchServedDocuments, generousLimits, jwtEnv } from './served-documents.ts';

type SpectralResult = { code: string; severity: number; message: string; path: string[]; source: string };

// The tools users already run on the served documents, as dev dependencies, offline.
describe('external OpenAPI tools on every served document', () => {
  let t: TestApp;
  let dir: string;
  let files: string[];
  let docs: Record<string, unknown>;
  before(async () => {
    t = await createTestApp(generousLimits(jwtEnv));
    // Saved as a user saves them (`curl -o openapi.json`), each as openapi.json in a folder of its own
    // outside the project: a ruleset override keyed to a file name would hide a finding only here.
    dir = mkdtempSync(join(tmpdir(), 'versionary-contract-docs-'));
    files = [];
    docs = {};
    for (const [name, doc] of Object.entries(await fetchServedDocuments(t.app))) {
      const file = join(dir, name.replace('.openapi.json', ''), 'openapi.json');
      mkdirSync(join(file, '..'));
      writeFileSync(file, JSON.stringify(doc, null, 2));
      files.push(file);
      docs[file] = doc;
    }
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'Spectral (spectral:oas + OWASP, .spectral.yaml) reports 0 errors, and warnings only for the public operations, without network',
    { timeout: 180_000 },
    async () => {
      const output = join(dir, 'spectral.json');
      const run = await runTool({
        script: 'node_modules/@stoplight/spectral-cli/dist/index.js',
        args: ['lint', '--ruleset', join(projectRoot, '.spectral.yaml'), '-f', 'json', '-o', output, ...files],
      });
      assert.deepEqual(run.networkAttempts, []);
      const results = JSON.parse(readFileSync(output, 'utf8')) as SpectralResult[];
      // A public operation (`security: []`) is what these two OWASP warnings point at: it is meant to be read without credentials, so it has no 401.
      const intended = (r: SpectralResult) =>
        ['owasp:api2:2023-read-restricted', 'owasp:api8:2023-define-error-responses-401'].includes(r.code) &&
        isPublic(r);
      const isPublic = (r: SpectralResult) => {
        const [, path, method] = r.path;
        const doc = docs[r.source] as { paths: Record<string, Record<string, { security?: unknown[] }>> } | undefined;
        return doc?.paths[path ?? '']?.[method ?? '']?.security?.length === 0;
      };
      assert.ok(results.filter(intended).length > 0, 'the public operations are found');
      const shown = results
        .filter((r) => r.severity <= 1 && !intended(r))
        .map((r) => `${r.source.slice(dir.length + 1)} ${r.code} ${r.path.join('.')}: ${r.message}`);
      assert.deepEqual(shown, []);
      assert.equal(run.code, 0, run.stderr);
    },
  );

  it("the ruleset exempts nothing by file name, so a user's openapi.json gets the findings this test gets", () => {
    assert.doesNotMatch(readFileSync(join(projectRoot, '.spectral.yaml'), 'utf8'), /^overrides:/m);
  });

  it(
    "the network guard catches a connection, and the project's redocly.yaml alone keeps Redocly offline",
    { timeout: 180_000 },
    async () => {
      const probe = join(dir, 'probe.mjs');
      writeFileSync(probe, "await fetch('https://registry.npmjs.org/').catch(() => {});\n");
      assert.deepEqual(
        (await runTool({ script: probe, args: [] })).networkAttempts.map((a) => a.replace(/^.* tried /, '')),
        ['registry.npmjs.org:443'],
      );
      const run = await runTool({
        script: 'node_modules/@redocly/cli/bin/cli.js',
        args: ['lint', '--format', 'json', files[0]!],
        quiet: false,
      });
      assert.deepEqual(run.networkAttempts, []);
      assert.equal(run.code, 0, run.stderr);
    },
  );

  it(
    'Redocly lint (recommended) reports 0 errors and 0 warnings, without network or telemetry',
    { timeout: 180_000 },
    async () => {
      for (const file of files) {
        const run = await runTool({
          script: 'node_modules/@redocly/cli/bin/cli.js',
          args: ['lint', '--extends', 'recommended', '--format', 'json', file],
        });
        assert.deepEqual(run.networkAttempts, []);
        const report = JSON.parse(run.stdout) as {
          totals: { errors: number; warnings: number };
          problems: Array<{ ruleId: string; message: string }>;
        };
        assert.deepEqual(
          report.problems.map((p) => `${p.ruleId}: ${p.message}`),
          [],
          file,
        );
        assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
        assert.equal(run.code, 0, run.stderr);
      }
    },
  );
});
