import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { bundleFromOpenApi } from '../../core/versions/index.ts';
import { parseUsageLine, usageOfLine, type LineJudge } from './usage-log-calls.ts';
import type { UsageLogLine } from './usage-log-format.ts';

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
const judge: LineJudge = {
  bundle,
  verdict: ({ version, method, path }): LifecycleVerdict =>
    version !== 'v1'
      ? { headers: {}, deprecated: false }
      : method === 'GET' && path === '/echo'
        ? { headers: {}, deprecated: true, removed: new Error('gone') as never }
        : { headers: {}, deprecated: true },
};
const base: UsageLogLine = {
  ts: '1764259200.123',
  rid: '0123456789abcdef0123456789abcdef',
  version: 'v2',
  operation: '/users/{id}',
  method: 'GET',
  client: 'acme',
  status: '200',
  deprecated: '',
};
const at = 1764259200123;

describe('a line of the usage log', () => {
  it('parses the format, and says why a line is not of it', () => {
    assert.deepEqual(parseUsageLine(JSON.stringify(base)), base);
    assert.equal(parseUsageLine('{"ts":'), 'not JSON');
    assert.equal(parseUsageLine('[1]'), 'not a JSON object');
    assert.equal(parseUsageLine(JSON.stringify({ ...base, client: undefined })), '"client" is missing or not a string');
    assert.match(parseUsageLine(JSON.stringify({ ...base, ts: '-' })) as string, /"ts"/);
    assert.match(parseUsageLine(JSON.stringify({ ...base, status: '2000' })) as string, /"status"/);
    assert.match(parseUsageLine(JSON.stringify({ ...base, method: 'get me' })) as string, /"method"/);
  });

  it('counts a current version call per operation, and records nothing else', () => {
    assert.deepEqual(usageOfLine(base, judge), {
      kind: 'counted',
      calls: [],
      count: { hour: at, version: 'v2', endpoint: 'GET /users/{id}', clientId: 'acme', calls: 1, lastSeen: at },
    });
  });

  it('records a deprecated call, and one row per deprecated element, as the gateway does', () => {
    const usage = usageOfLine(
      { ...base, version: 'v1', client: '', method: 'HEAD', deprecated: 'GET /users/{id}?fields,User.nickname' },
      judge,
    );
    const call = { version: 'v1', endpoint: 'GET /users/{id}', clientId: 'anonymous', at };
    assert.deepEqual(usage, {
      kind: 'counted',
      calls: [call, { ...call, element: 'GET /users/{id}?fields' }, { ...call, element: 'User.nickname' }],
      count: { hour: at, version: 'v1', endpoint: 'GET /users/{id}', clientId: 'anonymous', calls: 1, lastSeen: at },
    });
  });

  it('skips refusals (a call refused as removed or in a brownout too) and unknown paths', () => {
    assert.deepEqual(usageOfLine({ ...base, version: 'v1', operation: '/echo', status: '410' }, judge), {
      kind: 'skipped',
      reason: 'refused with 410',
    });
    assert.equal(usageOfLine({ ...base, version: 'v1', operation: '/echo', status: '404' }, judge).kind, 'skipped');
    assert.equal(usageOfLine({ ...base, status: '401', client: '' }, judge).kind, 'skipped');
    assert.equal(usageOfLine({ ...base, status: '429' }, judge).kind, 'skipped');
    assert.equal(usageOfLine({ ...base, operation: '/users/42', status: '404' }, judge).kind, 'skipped');
    assert.equal(usageOfLine({ ...base, version: 'v9' }, judge).kind, 'skipped');
  });
});
