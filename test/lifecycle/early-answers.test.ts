import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';
import { testEpoch } from '../support/test-app.ts';

const adminKey = 'test-admin-key-0123456789';
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const deprecatedAt = iso(testEpoch - day);
const sunsetAt = iso(testEpoch + 200 * day);

type Answer = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request over the socket; raw headers (a flat list) keep a repeated header repeated. */
function send(base: string, path: string, headers: Record<string, string> | string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// The spec's "Deprecation headers": "Responses of a deprecated version carry these headers". A
// request refused before the lifecycle step (its version negotiated, its caller identified) is
// still a response of that version: it carries the version's public dates.
// The spec, "Deprecation headers": "Responses of a deprecated version carry these headers; responses of
// a current version carry none of them." Every response, so a refusal before the lifecycle step too.
describe('a deprecated version: the answers refused before its lifecycle step carry its headers', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService({
      clock: { now: () => testEpoch },
      file: {
        versions: {
          v1: { releasedAt: '2024-01-01T00:00:00Z', deprecatedAt, sunsetAt, replacement: 'v2' },
          v2: { releasedAt: '2025-06-01T00:00:00Z' },
        },
      },
    });
  });
  after(async () => {
    await service.stop();
  });

  const assertDeprecated = (res: Answer, label: string) => {
    assert.equal(res.headers.deprecation, deprecatedAt, `${label}: Deprecation`);
    assert.equal(res.headers.sunset, sunsetAt, `${label}: Sunset`);
    assert.match(String(res.headers.link), /rel="deprecation"/, `${label}: Link`);
  };

  it('a v1 request whose Accept names v2 is 400 with Deprecation, Sunset and Link', async () => {
    const res = await send(service.base, '/api/v1/users', {
      authorization: `Bearer ${adminKey}`,
      accept: 'application/json; version=2',
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assertDeprecated(res, 'Accept naming v2');
  });

  it('a v1 request with a repeated X-API-Key header is 400 with Deprecation, Sunset and Link', async () => {
    const host = ['host', `127.0.0.1:${service.port}`];
    const res = await send(service.base, '/api/v1/users', [...host, 'x-api-key', adminKey, 'x-api-key', adminKey]);
    assert.equal(res.statusCode, 400, res.body);
    assertDeprecated(res, 'repeated X-API-Key');
  });

  it('a v1 request without credentials is 401 with the same headers; v2 answers carry none', async () => {
    const res = await send(service.base, '/api/v1/users', {});
    assert.equal(res.statusCode, 401, res.body);
    assertDeprecated(res, 'no credentials');
    const current = await send(service.base, '/api/v2/users', {
      authorization: `Bearer ${adminKey}`,
      accept: 'application/json; version=1',
    });
    assert.equal(current.statusCode, 400, current.body);
    for (const name of ['deprecation', 'sunset', 'link']) assert.equal(current.headers[name], undefined, name);
  });

  it('an answer that passed the lifecycle step is not given the headers twice', async () => {
    const res = await send(service.base, '/api/v1/users', { authorization: `Bearer ${adminKey}` });
    assert.equal(res.statusCode, 200, res.body);
    assertDeprecated(res, 'served');
    const links = String(res.headers.link).split(/,\s*(?=<)/);
    assert.deepEqual(links, [...new Set(links)], 'no link twice');
  });
});

describe('a deprecated version: a 429 carries its headers too', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService({
      clock: { now: () => testEpoch },
      file: {
        rateLimit: { max: 1, windowSeconds: 60 },
        versions: {
          v1: { releasedAt: '2024-01-01T00:00:00Z', deprecatedAt, sunsetAt, replacement: 'v2' },
          v2: { releasedAt: '2025-06-01T00:00:00Z' },
        },
      },
    });
  });
  after(async () => {
    await service.stop();
  });

  it('the request past the limit is 429 with Deprecation, Sunset and Link', async () => {
    const headers = { authorization: `Bearer ${adminKey}` };
    let res = await send(service.base, '/api/v1/users', headers);
    for (let i = 0; i < 5 && res.statusCode !== 429; i++) res = await send(service.base, '/api/v1/users', headers);
    assert.equal(res.statusCode, 429, res.body);
    assert.equal(res.headers.deprecation, deprecatedAt);
    assert.equal(res.headers.sunset, sunsetAt);
    assert.match(String(res.headers.link), /rel="deprecation"/);
  });
});
