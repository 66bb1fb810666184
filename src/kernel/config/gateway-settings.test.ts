import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGatewaySettings } from './gateway-settings.ts';

const parse = (gateway: unknown) => {
  const errors: string[] = [];
  const settings = parseGatewaySettings({ file: gateway === undefined ? {} : { gateway }, errors });
  return { settings, errors };
};
const versions = {
  v1: { upstream: 'http://127.0.0.1:9001/', openapi: './v1.json' },
  v2: { upstream: 'https://api.internal:8443', openapi: 'v2.yaml' },
};

describe('parseGatewaySettings', () => {
  it('is absent without a gateway section, and fills the defaults', () => {
    assert.deepEqual(parse(undefined), { settings: undefined, errors: [] });
    const { settings, errors } = parse({ versions });
    assert.deepEqual(errors, []);
    assert.deepEqual(settings, {
      prefix: '/api',
      vendor: 'api',
      identify: { kind: 'apiKeys' },
      clientHeader: 'x-versionary-client',
      timeoutMs: 30_000,
      underscoresInHeaders: false,
      forwardedHeaders: 'x-forwarded',
      versions: [
        { name: 'v1', upstream: 'http://127.0.0.1:9001', openapi: './v1.json', forwardUndocumented: false },
        { name: 'v2', upstream: 'https://api.internal:8443', openapi: 'v2.yaml', forwardUndocumented: false },
      ],
    });
  });

  it('reads forwardUndocumented per version, never on a derived one', () => {
    const { settings } = parse({ versions: { ...versions, v1: { ...versions.v1, forwardUndocumented: true } } });
    assert.deepEqual(
      settings?.versions.map((v) => 'forwardUndocumented' in v && v.forwardUndocumented),
      [true, false],
    );
    const wrong = parse({ versions: { ...versions, v1: { ...versions.v1, forwardUndocumented: 'yes' } } });
    assert.equal(wrong.settings, undefined);
    assert.ok(
      wrong.errors.some((e) => e.includes('gateway.versions.v1.forwardUndocumented must be true or false')),
      wrong.errors.join('\n'),
    );
    const derived = parse({
      versions: { v1: { derivedFrom: 'v2', changes: './c.json', forwardUndocumented: true }, v2: versions.v2 },
    });
    assert.equal(derived.settings, undefined);
    assert.ok(
      derived.errors.some((e) =>
        /gateway\.versions\.v1\.forwardUndocumented applies to a version with an upstream/.test(e),
      ),
      derived.errors.join('\n'),
    );
  });

  it('reads the nginx data plane section, and names its mistakes', () => {
    const nginx = { out: './nginx', reload: ['nginx', '-s', 'reload'], listen: 8080, authCacheSeconds: 10 };
    assert.deepEqual(parse({ versions, nginx }).settings?.nginx, nginx);
    const { errors } = parse({ versions, nginx: { reload: [], listen: 0, cache: 1 } });
    assert.ok(
      errors.some((e) => e.includes('gateway.nginx')),
      errors.join('\n'),
    );
    assert.ok(errors.length >= 2, errors.join('\n'));
  });

  it('reads which forwarding headers go upstream, and refuses any other value', () => {
    for (const mode of ['x-forwarded', 'forwarded', 'both'])
      assert.equal(parse({ versions, forwardedHeaders: mode }).settings?.forwardedHeaders, mode);
    const { settings, errors } = parse({ versions, forwardedHeaders: 'X-Forwarded-For' });
    assert.equal(settings, undefined);
    assert.deepEqual(errors, [
      'gateway.forwardedHeaders must be "x-forwarded", "forwarded" or "both", not "X-Forwarded-For"',
    ]);
  });

  it('reads each way of identifying the client', () => {
    assert.deepEqual(parse({ versions, identify: { header: 'X-Client-Id' } }).settings?.identify, {
      kind: 'header',
      header: 'x-client-id',
    });
    assert.deepEqual(parse({ versions, identify: { jwt: true } }).settings?.identify, {
      kind: 'jwt',
      claim: 'client_id',
    });
    assert.deepEqual(parse({ versions, identify: { jwt: { claim: 'sub' } } }).settings?.identify, {
      kind: 'jwt',
      claim: 'sub',
    });
  });

  it("reads the size of nginx's usage counters, and refuses a bad one", () => {
    assert.deepEqual(parse({ versions, nginx: { out: './nginx', usageMemory: '16m' } }).settings?.nginx, {
      out: './nginx',
      usageMemory: '16m',
    });
    const { errors } = parse({ versions, nginx: { out: './nginx', usageMemory: '16 MB', usagelog: 'x' } });
    for (const part of ['gateway.nginx.usageMemory must be a size', 'gateway.nginx: unknown key "usagelog"'])
      assert.ok(
        errors.some((e) => e.includes(part)),
        `${part} in ${errors.join(' | ')}`,
      );
  });

  it('reports every mistake at once, naming the key', () => {
    const { errors } = parse({
      prefix: 'api/',
      vendor: 'a b',
      versions: { one: { upstream: 'ftp://x', openapi: '', extra: 1 }, v2: 'http://x' },
      identify: { apiKeys: true, header: 'x' },
      clientHeader: 'bad header',
      timeoutMs: 5,
      proxy: true,
    });
    for (const part of [
      'unknown key "proxy"',
      'gateway.prefix',
      'gateway.vendor',
      '"one" is not a version name',
      'versions.one.upstream',
      'versions.one.openapi',
      'versions.one: unknown key "extra"',
      'versions.v2 must be',
      'gateway.identify must be one of',
      'gateway.clientHeader',
      'gateway.timeoutMs',
    ]) {
      assert.ok(
        errors.some((e) => e.includes(part)),
        `${part} in ${errors.join(' | ')}`,
      );
    }
    assert.deepEqual(parse({}).errors, [
      'gateway.versions must name each version: { "v1": { "upstream": "http://…", "openapi": "./openapi-v1.json" } }',
    ]);
  });
});
