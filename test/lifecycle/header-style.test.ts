import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp, testEpoch } from '../support/test-app.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const day = 86_400_000;

async function start(headerStyle: string) {
  const lines: string[] = [];
  const file = {
    headerStyle,
    versions: { v1: { deprecatedAt: iso(testEpoch - day), sunsetAt: iso(testEpoch + 200 * day) }, v2: {} },
  };
  const t = await createTestApp({
    env: { VERSIONARY_CONFIG: '/c.json', LOG_LEVEL: 'warn' },
    files: { '/c.json': JSON.stringify(file) },
    logStream: { write: (line) => void lines.push(line) },
  });
  const { headers } = await t.app.inject({ url: '/api/v1/users' });
  await t.close();
  const deprecations = lines
    .map((line) => JSON.parse(line) as { code?: string; msg: string })
    .filter((entry) => entry.code === 'VERSIONARY_DEP001');
  return { deprecation: headers.deprecation, sunset: headers.sunset, deprecations };
}

describe('the config file spells headerStyle "iso8601"; "iso" still starts, with a logged deprecation', () => {
  it('"iso8601" sends ISO 8601 dates and logs no deprecation', async () => {
    const current = await start('iso8601');
    assert.equal(current.deprecation, iso(testEpoch - day));
    assert.equal(current.sunset, iso(testEpoch + 200 * day));
    assert.deepEqual(current.deprecations, []);
  });

  it('"iso" sends the same headers and logs a warning with code VERSIONARY_DEP001 naming the spelling to use', async () => {
    const old = await start('iso');
    assert.equal(old.deprecation, iso(testEpoch - day));
    assert.equal(old.sunset, iso(testEpoch + 200 * day));
    assert.equal(old.deprecations.length, 1);
    assert.match(old.deprecations[0]!.msg, /headerStyle "iso" is deprecated: write "iso8601"/);
  });

  it('any other value is refused, naming the two spellings to use', async () => {
    await assert.rejects(start('loud'), /headerStyle must be "iso8601" or "rfc", not "loud"/);
  });
});
