import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { assertFieldErrors } from '../support/assertions.ts';
import { createTestApp, json, seedUsers, type TestApp } from '../support/test-app.ts';

interface Page {
  data: Array<{ id: number; name: string }>;
  meta: { limit: number; nextCursor: string | null; next: string | null };
}

/** The target of the one `rel="next"` link among a response's links (v1 also carries its deprecation links). */
const linkNext = (value: unknown): string | undefined => {
  const next = String(value ?? '')
    .split(/,\s*(?=<)/)
    .filter((link) => /; rel="next"$/.test(link));
  assert.ok(next.length <= 1, `one next link in ${String(value)}`);
  return next.length === 1 ? /^<([^>]+)>/.exec(next[0]!)?.[1] : undefined;
};

describe('pagination', () => {
  let t: TestApp;
  let ids: number[];
  before(async () => {
    // Walking every page of every version takes more than the default 100 requests a minute.
    t = await createTestApp({ rateLimitMax: 10_000 });
    ids = await seedUsers(t.storage, 45);
  });
  after(() => t.close());

  it('defaults to 20 items, says how to reach the next page in meta and Link', async () => {
    const res = await t.app.inject({ url: '/api/v2/users' });
    assert.equal(res.statusCode, 200);
    const page = json<Page>(res);
    assert.equal(page.data.length, 20);
    assert.equal(page.meta.limit, 20);
    assert.equal(typeof page.meta.nextCursor, 'string');
    assert.ok(page.meta.next?.startsWith('/api/v2/users?'));
    assert.equal(linkNext(res.headers.link), page.meta.next);
    const next = new URL(page.meta.next!, 'http://x').searchParams;
    assert.equal(next.get('cursor'), page.meta.nextCursor);
    assert.equal(next.get('limit'), '20');
  });

  for (const limit of [1, 7, 20, 45, 100]) {
    it(`walks all 45 users with limit=${limit} by meta.next, without duplicates or gaps`, async () => {
      const seen: number[] = [];
      let url: string | null = `/api/v2/users?limit=${limit}`;
      let pages = 0;
      while (url) {
        const res: LightMyRequestResponse = await t.app.inject({ url });
        assert.equal(res.statusCode, 200, url);
        const page = json<Page>(res);
        assert.ok(page.data.length <= limit);
        assert.equal(page.meta.limit, limit);
        seen.push(...page.data.map((u) => u.id));
        assert.equal(linkNext(res.headers.link), page.meta.next ?? undefined);
        url = page.meta.next;
        pages++;
        assert.ok(pages <= 46, 'pagination terminates');
      }
      assert.deepEqual(seen, ids);
      assert.equal(pages, Math.ceil(45 / limit));
    });
  }

  it('walks v1 array pages by the Link header, with the same pages as v2', async () => {
    const seen: number[] = [];
    let url: string | undefined = '/api/v1/users?limit=20';
    let pages = 0;
    while (url) {
      const res: LightMyRequestResponse = await t.app.inject({ url });
      assert.equal(res.statusCode, 200);
      const items = json<Array<{ id: number }>>(res);
      assert.ok(Array.isArray(items));
      seen.push(...items.map((u) => u.id));
      url = linkNext(res.headers.link);
      if (url) assert.ok(url.startsWith('/api/v1/users?'), url);
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids);
  });

  it('walks the pages by cursor, passing meta.nextCursor by hand', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v2/users?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: Page = json<Page>(await t.app.inject({ url }));
      seen.push(...page.data.map((u) => u.id));
      cursor = page.meta.nextCursor;
    } while (cursor);
    assert.equal(new Set(seen).size, 45);
    assert.deepEqual(seen, ids);
  });

  it('keeps fields in the next link', async () => {
    const res = await t.app.inject({ url: '/api/v2/users?limit=5&fields=id' });
    const page = json<Page>(res);
    assert.deepEqual(Object.keys(page.data[0]!), ['id']);
    const next = json<Page>(await t.app.inject({ url: page.meta.next! }));
    assert.deepEqual(Object.keys(next.data[0]!), ['id']);
    assert.equal(next.data[0]!.id, ids[5]);
  });

  it('accepts limit 1 and 100, refuses 0, 101, negatives and non-numbers with 400', async () => {
    assert.equal(json<Page>(await t.app.inject({ url: '/api/v2/users?limit=100' })).data.length, 45);
    assert.equal(json<Page>(await t.app.inject({ url: '/api/v2/users?limit=1' })).data.length, 1);
    for (const limit of ['0', '101', '1000', '-1', '1.5', 'ten', '', '9999']) {
      for (const v of ['v1', 'v2'])
        assertFieldErrors(
          await t.app.inject({ url: `/api/${v}/users?limit=${encodeURIComponent(limit)}` }),
          '/query/limit',
        );
    }
  });

  it('refuses a malformed cursor with 400', async () => {
    const forged = [
      'zzz',
      '!!',
      Buffer.from('id:abc').toString('base64url'),
      Buffer.from('id:0').toString('base64url'),
      Buffer.from('id:-5').toString('base64url'),
      Buffer.from('user:5').toString('base64url'),
      'a'.repeat(201),
      '',
    ];
    for (const cursor of forged) {
      for (const v of ['v1', 'v2'])
        assertFieldErrors(
          await t.app.inject({ url: `/api/${v}/users?cursor=${encodeURIComponent(cursor)}` }),
          '/query/cursor',
        );
    }
  });

  it('answers an empty last page for a cursor past the end', async () => {
    const cursor = Buffer.from('id:999999').toString('base64url');
    const res = await t.app.inject({ url: `/api/v2/users?cursor=${cursor}` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), { data: [], meta: { limit: 20, nextCursor: null, next: null } });
    assert.equal(res.headers.link, undefined);
  });

  it('pages posts the same way', async () => {
    const userId = ids[0]!;
    for (let i = 0; i < 25; i++)
      await t.storage.posts.create({ userId, title: `p${i}`, body: '', at: new Date(0).toISOString() });
    const first = await t.app.inject({ url: `/api/v2/users/${userId}/posts` });
    const page = json<Page>(first);
    assert.equal(page.data.length, 20);
    assert.ok(page.meta.next?.startsWith(`/api/v2/users/${userId}/posts?`));
    const second = json<Page>(await t.app.inject({ url: page.meta.next! }));
    assert.equal(second.data.length, 5);
    assert.equal(second.meta.next, null);
    assert.equal(new Set([...page.data, ...second.data].map((p) => p.id)).size, 25);
    assertFieldErrors(await t.app.inject({ url: `/api/v2/users/${userId}/posts?limit=101` }), '/query/limit');
  });
});

describe('a paginated list of a deprecated version', () => {
  it('keeps its deprecation and successor links beside the next link', async () => {
    const t = await createTestApp();
    await seedUsers(t.storage, 3);
    for (const [url, headers] of [
      ['/api/v1/users?limit=1', {}],
      ['/api/users?limit=1', { accept: 'application/json; version=1' }],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      assert.equal(res.statusCode, 200);
      const links = String(res.headers.link).split(/,\s*(?=<)/);
      assert.deepEqual(
        links.map((l) => /rel="([^"]+)"/.exec(l)?.[1]).sort(),
        ['deprecation', 'deprecation', 'next', 'successor-version'],
        String(res.headers.link),
      );
      assert.ok(links.includes('</api/versions/v1/migration-guide>; rel="deprecation"'));
      assert.ok(links.includes('</api/deprecations>; rel="deprecation"; type="application/deprecations+json"'));
      assert.ok(links.includes('</api/v2/openapi.json>; rel="successor-version"'));
      assert.ok(res.headers.deprecation && res.headers.sunset, 'the other deprecation headers stay too');
    }
    const v2 = await t.app.inject({ url: '/api/v2/users?limit=1' });
    assert.match(String(v2.headers.link), /^<[^>]+>; rel="next"$/, 'v2 carries only the next link');
    await t.close();
  });
});
