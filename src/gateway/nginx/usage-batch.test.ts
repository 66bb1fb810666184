import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { bundleFromOpenApi } from '../../core/versions/index.ts';
import { usageOfEntry, type EntryJudge, type UsageEntry } from './usage-batch.ts';

const document = (v: string) =>
  JSON.parse(readFileSync(new URL(`../../../examples/gateway/openapi-${v}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const bundle = bundleFromOpenApi({
  prefix: '/api',
  versions: ['v1', 'v2'].map((name) => ({ name, document: document(name) })),
});
// v1 is deprecated; v1's GET /echo is removed.
const judge: EntryJudge = {
  bundle,
  verdict: ({ version, method, path }): LifecycleVerdict =>
    version !== 'v1'
      ? { headers: {}, deprecated: false }
      : method === 'GET' && path === '/echo'
        ? { headers: {}, deprecated: true, removed: new Error('gone') as never }
        : { headers: {}, deprecated: true },
};
const minute = 29_404_320;
const at = minute * 60_000;
const base: UsageEntry = {
  client: 'acme',
  version: 'v2',
  method: 'GET',
  operation: '/users/{id}',
  minute,
  status: 200,
  deprecated: '',
  calls: 3,
};

describe("a counter of nginx's usage", () => {
  it('counts its calls per operation, as the gateway counts them', () => {
    assert.deepEqual(usageOfEntry(base, judge), {
      calls: [],
      count: { hour: at, version: 'v2', endpoint: 'GET /users/{id}', clientId: 'acme', calls: 3, lastSeen: at },
    });
  });

  it('records each call to a deprecated version, and each deprecated element used, per client', () => {
    const { calls, count } = usageOfEntry({ ...base, version: 'v1', calls: 2, deprecated: 'GET /users/{id}?x' }, judge);
    const call = { version: 'v1', endpoint: 'GET /users/{id}', clientId: 'acme', at };
    assert.deepEqual(calls, [
      call,
      { ...call, element: 'GET /users/{id}?x' },
      call,
      { ...call, element: 'GET /users/{id}?x' },
    ]);
    assert.equal(count?.calls, 2);
  });

  it('counts HEAD as GET, and a call without credentials for anonymous', () => {
    const { count } = usageOfEntry({ ...base, method: 'HEAD', client: '' }, judge);
    assert.equal(count?.endpoint, 'GET /users/{id}');
    assert.equal(count?.clientId, 'anonymous');
  });

  it('counts no refusal, no removal answered 404, and no path of no operation', () => {
    for (const status of [401, 403, 410, 429])
      assert.deepEqual(usageOfEntry({ ...base, status }, judge), { calls: [] });
    assert.deepEqual(usageOfEntry({ ...base, version: 'v1', operation: '/echo', status: 404 }, judge), { calls: [] });
    assert.deepEqual(usageOfEntry({ ...base, operation: '/nope' }, judge), { calls: [] });
    assert.deepEqual(usageOfEntry({ ...base, version: 'v9' }, judge), { calls: [] });
  });
});
