import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import pg from 'pg';
import { checkPrerequisites, defaultPrerequisites } from './prerequisites.ts';

describe('the npm test preflight', () => {
  it('names, in one line, each missing service and how to get it', async () => {
    const missing = await checkPrerequisites({
      postgresUrl: 'postgres://postgres@127.0.0.1:1/test',
      redisUrl: 'redis://127.0.0.1:1',
      // apt would not put Chromium here, so nothing is installed even when running as root.
      chromiumPath: '/nonexistent/chromium',
      installChromium: true,
    });
    assert.ok(missing !== null);
    assert.doesNotMatch(missing, /\n/);
    assert.match(
      missing,
      /^npm test needs PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/test \(.*ECONNREFUSED.*apt-get install postgresql/,
    );
    assert.match(missing, /; Redis at redis:\/\/127\.0\.0\.1:1 \(.*apt-get install redis-server/);
    assert.match(missing, /; Chromium at \/nonexistent\/chromium \(.*apt-get install chromium/);
  });

  it('passes on this machine, creating a missing test database on a running PostgreSQL', async () => {
    const name = `preflight_${process.pid}_${Date.now()}`;
    const url = new URL(defaultPrerequisites.postgresUrl);
    url.pathname = `/${name}`;
    try {
      assert.equal(
        await checkPrerequisites({ ...defaultPrerequisites, postgresUrl: url.href, installChromium: false }),
        null,
      );
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      assert.equal((await client.query('SELECT current_database() AS name')).rows[0].name, name);
      await client.end();
    } finally {
      url.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: url.href });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });

  it('runs first in npm test', () => {
    const scripts = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    assert.match(scripts.test!, /^node --import tsx scripts\/test-preflight\.ts && /);
  });
});
