import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { createUpstreamHeaders, headersOfList, type UpstreamHeadersOptions } from './forward-headers.ts';

/** A request as the builder reads it: the client's headers, its address and scheme. */
const requestOf = (headers: Record<string, string>, ip = '127.0.0.1') =>
  ({ headers, ip, protocol: 'http' }) as unknown as FastifyRequest;

const sent = (mode: UpstreamHeadersOptions['forwarded'], headers: Record<string, string>, ip?: string) =>
  headersOfList(
    createUpstreamHeaders({ host: 'up:9001', underscores: false, forwarded: mode })(requestOf(headers, ip)),
  );

// The client's own chain and spoofed values, beside an ordinary header.
const client = {
  host: 'api.example',
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  forwarded: 'for=198.51.100.7',
  'x-custom': 'kept',
};

describe('createUpstreamHeaders: the forwarding headers of each mode', () => {
  it('x-forwarded (the default): the trio, the client chain extended, and no Forwarded, not even the client one', () => {
    for (const mode of [undefined, 'x-forwarded'] as const) {
      const h = sent(mode, client);
      assert.equal(h.host, 'up:9001');
      assert.equal(h['x-custom'], 'kept');
      assert.equal(h['x-forwarded-for'], '203.0.113.9, 127.0.0.1');
      assert.equal(h['x-forwarded-proto'], 'http');
      assert.equal(h['x-forwarded-host'], 'api.example');
      assert.equal(h.forwarded, undefined, String(mode));
    }
  });

  it('forwarded: RFC 7239 alone, the client chain extended, and none of the client X-Forwarded-* passed on', () => {
    const h = sent('forwarded', client);
    assert.equal(h.forwarded, 'for=198.51.100.7, for=127.0.0.1;proto=http;host="api.example"');
    for (const name of ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']) assert.equal(h[name], undefined);
    assert.equal(h['x-custom'], 'kept');
  });

  it('both: the trio and Forwarded, an IPv6 node quoted in brackets', () => {
    const h = sent('both', { host: 'api.example' }, '::1');
    assert.equal(h['x-forwarded-for'], '::1');
    assert.equal(h['x-forwarded-proto'], 'http');
    assert.equal(h['x-forwarded-host'], 'api.example');
    assert.equal(h.forwarded, 'for="[::1]";proto=http;host="api.example"');
  });

  it('drops a chain the client Connection header names, in every mode', () => {
    const named = { ...client, connection: 'x-forwarded-for, forwarded' };
    assert.equal(sent('both', named)['x-forwarded-for'], '127.0.0.1');
    assert.equal(sent('both', named).forwarded, 'for=127.0.0.1;proto=http;host="api.example"');
  });
});
