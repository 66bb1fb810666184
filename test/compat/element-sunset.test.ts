// `versionary diff` as users run it on files: a deprecated property or parameter removed before
// its x-sunset fails the run, one removed after it passes, and --audience changes the notice a
// new x-sunset owes. The harness pins the CLI's clock at 2026-01-01.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../support/cli-harness.ts';

const harness = createCliHarness('versionary-element-sunset-');

/** GET /orders?status with a response field `legacyTotal`, each carrying `extra` when given. */
function doc(extra: Record<string, unknown> | undefined): unknown {
  const str = { type: 'string' };
  const parameters = extra === undefined ? [] : [{ name: 'status', in: 'query', schema: str, ...extra }];
  const properties = { id: str, ...(extra === undefined ? {} : { legacyTotal: { ...str, ...extra } }) };
  const schema = { type: 'object', properties };
  return {
    openapi: '3.0.3',
    info: { title: 'Orders', version: '1' },
    paths: {
      '/orders': {
        get: { parameters, responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
      },
    },
  };
}

before(() => {
  const write = (name: string, value: unknown) => writeFileSync(join(harness.dir, name), JSON.stringify(value));
  write('plain.json', doc({}));
  write('gone.json', doc(undefined));
  write('dated-future.json', doc({ deprecated: true, 'x-sunset': '2026-09-01' }));
  write('dated-past.json', doc({ deprecated: true, 'x-sunset': '2025-12-01' }));
  write('undated.json', doc({ deprecated: true }));
});
after(harness.cleanup);

describe('versionary diff on deprecated properties and parameters', () => {
  it('removed before the x-sunset: exit 1, naming the field, the parameter and the rules', async () => {
    const run = await harness.cli(['diff', 'dated-future.json', 'gone.json']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /request-parameter-removed-before-sunset/);
    assert.match(run.stdout, /`status` was removed before its sunset date 2026-09-01/);
    assert.match(run.stdout, /response-property-removed-before-sunset/);
    assert.match(run.stdout, /legacyTotal` was removed before its sunset date 2026-09-01/);
  });

  it('removed after the x-sunset: exit 0, reported as announced', async () => {
    const run = await harness.cli(['diff', 'dated-past.json', 'gone.json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /request-parameter-removed-after-sunset/);
    assert.match(run.stdout, /response-property-removed-after-sunset/);
    assert.match(run.stdout, /legacyTotal` was removed after its sunset date 2025-12-01, as announced/);
    // --now moves the clock back before the date: the same edit breaks again.
    assert.equal((await harness.cli(['diff', 'dated-past.json', 'gone.json', '--now', '2025-11-01'])).code, 1);
  });

  it('deprecated without a date: a risk, failing only with --fail-on risk', async () => {
    const run = await harness.cli(['diff', 'undated.json', 'gone.json', '--format', 'json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const ids = (JSON.parse(run.stdout) as { changes: { id: string }[] }).changes.map((c) => c.id).sort();
    assert.deepEqual(ids, [
      'request-parameter-removed-after-deprecation',
      'response-property-removed-after-deprecation',
    ]);
    assert.equal((await harness.cli(['diff', 'undated.json', 'gone.json', '--fail-on', 'risk'])).code, 1);
  });

  it('never deprecated: the plain removal still breaks', async () => {
    const run = await harness.cli(['diff', 'plain.json', 'gone.json']);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /request-parameter-removed\b(?!-)/);
    assert.match(run.stdout, /response-property-removed\b(?!-)/);
  });

  it('a new x-sunset 243 days away suits a public API but not an enterprise one', async () => {
    const pub = await harness.cli(['diff', 'plain.json', 'dated-future.json']);
    assert.equal(pub.code, 0, pub.stdout + pub.stderr);
    assert.doesNotMatch(pub.stdout, /sunset-too-soon/);
    const ent = await harness.cli(['diff', 'plain.json', 'dated-future.json', '--audience', 'enterprise']);
    assert.equal(ent.code, 1, ent.stdout + ent.stderr);
    assert.match(ent.stdout, /request-parameter-sunset-too-soon/);
    assert.match(ent.stdout, /response-property-sunset-too-soon/);
    assert.match(ent.stdout, /enterprise APIs owe at least 360 days of notice/);
    const bad = await harness.cli(['diff', 'plain.json', 'dated-future.json', '--audience', 'internal']);
    assert.equal(bad.code, 2);
  });
});
