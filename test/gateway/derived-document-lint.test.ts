import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { projectRoot, runTool } from '../support/contract-tools.ts';
import { derivedFastapiGateway } from '../support/derived-fastapi.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

interface Finding {
  rule: string;
  /** Where, with the newer version's base taken out of path keys, so both documents' places compare. */
  at: string;
}

/** A place in either document, the same for both: `/api/v2/users` and `/users` are one path. */
const placeOf = (parts: string[]) => parts.map((p) => p.replace(/^\/api\/v[0-9]+(?=\/|$)/, '') || '/').join('/');

async function spectral(file: string, dir: string): Promise<Finding[]> {
  const output = join(dir, `${file.split('/').at(-2)}-spectral.json`);
  const run = await runTool({
    script: 'node_modules/@stoplight/spectral-cli/dist/index.js',
    args: ['lint', '--ruleset', join(projectRoot, '.spectral.yaml'), '-f', 'json', '-o', output, file],
  });
  assert.deepEqual(run.networkAttempts, []);
  const results = JSON.parse(readFileSync(output, 'utf8')) as Array<{ code: string; path: string[] }>;
  return results.map((r) => ({ rule: `spectral ${r.code}`, at: placeOf(r.path) }));
}

async function redocly(file: string): Promise<Finding[]> {
  const run = await runTool({
    script: 'node_modules/@redocly/cli/bin/cli.js',
    args: ['lint', '--extends', 'recommended', '--format', 'json', file],
  });
  assert.deepEqual(run.networkAttempts, []);
  const report = JSON.parse(run.stdout) as {
    problems: Array<{ ruleId: string; location: Array<{ pointer: string }> }>;
  };
  return report.problems.map((p) => ({
    rule: `redocly ${p.ruleId}`,
    at: placeOf(
      (p.location[0]?.pointer ?? '')
        .replace(/^#\//, '')
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')),
    ),
  }));
}

// The derived document is what v1 serves, closed: linted as v2's is, it adds no finding (no
// component left behind by an endpoint v1 lacks, no dangling reference), so a clean v2 gives a clean v1.
describe("a derived version's document lints as clean as the newest one", () => {
  const { gateway } = derivedFastapiGateway();
  const dir = mkdtempSync(join(tmpdir(), 'versionary-derived-lint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const save = async (version: string) => {
    const response = await fetch(`${gateway.base}/api/${version}/openapi.json`, {
      headers: { authorization: `Bearer ${gatewayAdminKey}` },
    });
    assert.equal(response.status, 200);
    const doc = (await response.json()) as Record<string, unknown>;
    // As a user saves it (`curl -o openapi.json`), in a folder of its own.
    const file = join(dir, version, 'openapi.json');
    mkdirSync(join(dir, version));
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return { file, doc };
  };

  it(
    'Spectral and Redocly find nothing in v1 that they do not find in v2, and no unused component',
    { timeout: 300_000 },
    async () => {
      const v2 = await save('v2');
      const v1 = await save('v1');
      const schemas = (doc: Record<string, unknown>) =>
        Object.keys((doc.components as { schemas: Record<string, unknown> }).schemas).sort();
      // EmailList serves only the endpoint v2 added: v1's document does not carry it.
      assert.ok(schemas(v2.doc).includes('EmailList'));
      assert.deepEqual(schemas(v1.doc), ['Address', 'Node', 'User', 'UserInput', 'UserList', 'UserPatch']);
      const newer = [...(await spectral(v2.file, dir)), ...(await redocly(v2.file))];
      const older = [...(await spectral(v1.file, dir)), ...(await redocly(v1.file))];
      const known = new Set(newer.map((f) => `${f.rule} ${f.at}`));
      assert.deepEqual(
        older.filter((f) => !known.has(`${f.rule} ${f.at}`)),
        [],
        'findings of v1 that v2 has not',
      );
      const unused = /unused-component/;
      assert.deepEqual(
        newer.filter((f) => unused.test(f.rule)),
        [],
        'the fixture: v2 uses all its components',
      );
      assert.deepEqual(
        older.filter((f) => unused.test(f.rule)),
        [],
      );
    },
  );
});
