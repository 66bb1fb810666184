import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const isoDay = (at: number) => iso(at).slice(0, 10);

/**
 * Where people read the lifecycle, the docs pages say when a version, an endpoint or an element
 * closes to new clients, and how long extended access may be asked for, as the headers and the
 * 403 do: a client learns of the closing before it is refused.
 */
describe('the docs pages show closings to new clients and the cap on extended access', () => {
  let now = t0;
  let service: StartedService;
  before(async () => {
    service = await startTestService({
      clock: { now: () => now },
      file: {
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(t0 + 100 * day),
            closedToNewClientsAt: iso(t0 + 2 * day),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
          },
        },
        endpointDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users/{id}/posts',
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 300 * day),
            closedToNewClientsAt: iso(t0 + 3 * day),
          },
        ],
        fieldDeprecations: [
          {
            version: 'v2',
            resource: 'User',
            field: 'nickname',
            replacement: 'displayName',
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 300 * day),
            closedToNewClientsAt: iso(t0 + 4 * day),
          },
        ],
      },
    });
  });
  after(() => service.stop());
  const page = async (url: string) => {
    const res = await fetch(`${service.base}${url}`);
    assert.equal(res.status, 200, url);
    return res.text();
  };

  it('announces each closing before it, and says since when after it', async () => {
    const v1 = await page('/docs/v1');
    assert.match(
      v1,
      new RegExp(`<dt>Closed to new clients</dt><dd data-closed-to-new-clients="${isoDay(t0 + 2 * day)}">from <time`),
    );
    assert.match(
      v1,
      new RegExp(
        `<dt>Extended access</dt><dd data-extended-access-until="${isoDay(t0 + 100 * day)}">possible until <time`,
      ),
    );
    const v2 = await page('/docs/v2');
    assert.match(v2, new RegExp(`closed to new clients from <time datetime="${isoDay(t0 + 3 * day)}"`));
    assert.match(v2, new RegExp(`closed to new clients from <time datetime="${isoDay(t0 + 4 * day)}"`));

    now = t0 + 5 * day;
    assert.match(await page('/docs/v1'), /data-closed-to-new-clients="[^"]+">since <time/);
    const later = await page('/docs/v2');
    assert.match(later, new RegExp(`closed to new clients since <time datetime="${isoDay(t0 + 3 * day)}"`));
    assert.match(later, new RegExp(`closed to new clients since <time datetime="${isoDay(t0 + 4 * day)}"`));
  });

  it('adds a changelog entry for each closing once it has happened, in the page and both feeds', async () => {
    const closedTitles = async () => {
      const feed = (await (await fetch(`${service.base}/changelog.json`)).json()) as {
        items: Array<{ title: string; summary: string; tags: string[] }>;
      };
      return feed.items.filter((i) => i.tags.includes('closed_to_new_clients'));
    };
    now = t0 + day;
    assert.deepEqual(await closedTitles(), [], 'a feed carries no future dates');
    now = t0 + 5 * day;
    const items = await closedTitles();
    assert.deepEqual(items.map((i) => i.title).sort(), [
      'GET /users/{id}/posts in v2 closed to new clients',
      'User.nickname in v2 closed to new clients',
      'v1 closed to new clients',
    ]);
    const v1 = items.find((i) => i.title.startsWith('v1'))!;
    assert.match(v1.summary, new RegExp(`since ${isoDay(t0 + 2 * day)}: .* Use v2 instead\\.`));
    assert.match(v1.summary, new RegExp(`until ${isoDay(t0 + 100 * day)} at the latest\\.$`));
    const atom = await (await fetch(`${service.base}/changelog.atom`)).text();
    assert.match(atom, /<title[^>]*>v1 closed to new clients<\/title>/);
    assert.match(await page('/docs/changelog'), /v1 closed to new clients/);
  });
});
