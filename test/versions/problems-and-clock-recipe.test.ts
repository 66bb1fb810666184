import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { app, clock } from './recipes/problems-and-clock.ts';

// The docs/api.md example of a handler's problem and of a clock set past a sunset, served by the plugin.
after(() => app.close());

describe('recipe: a handler answers a problem; a fixed clock shows the removal', () => {
  it('a thrown VersionaryError is a 404 problem with its detail', async () => {
    const res = await app.inject({ url: '/api/v2/books/7' });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json().detail, 'No book 7.');
    assert.equal((await app.inject({ url: '/api/v2/books/1' })).statusCode, 200);
  });

  it("createFixedClock('2027-07-01') stands after v1's sunset: v1 answers 410, and it is set by ISO text", async () => {
    assert.equal(clock.now(), Date.UTC(2027, 6, 1));
    assert.equal((await app.inject({ url: '/api/v1/books/1' })).statusCode, 410);
    // A removal stays: the clock moves on only for what comes after it.
    clock.set('2027-08-01T12:00:00+02:00');
    assert.equal(clock.now(), Date.UTC(2027, 7, 1, 10));
    assert.throws(() => clock.set('next July'), RangeError);
  });

  it('docs/api.md shows the example as it is, importing from versionary', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const code = readFileSync(new URL('./recipes/problems-and-clock.ts', import.meta.url), 'utf8')
      .replace("from '../../../src/index.ts'", "from 'versionary'")
      .replace("from '../../../src/http/plugin/index.ts'", "from 'versionary/fastify'");
    assert.ok(docs.includes(`\`\`\`ts\n${code}\`\`\`\n`), `docs/api.md lacks this block:\n${code}`);
  });
});
