import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  declareTransportPaths,
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

// The thin data plane serves a forwarded version's documented GET and HEAD calls; with
// `trustProxy` set, Fastify serves every call (the address is then Fastify's to read). With the
// proxy trusted being this very client and no `X-Forwarded-For` sent, both read the same address:
// the same call must get the same answer from both, header for header.
const file = {
  versions: { v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2099-01-01T00:00:00Z', replacement: 'v2' } },
  rateLimit: { max: 1000, windowSeconds: 600 },
};

/** The Python upstream's transport paths and its streamed `/big`, declared in each version's document. */
function editDocument(version: string, document: Record<string, unknown>): void {
  declareTransportPaths(version, document);
  const paths = document.paths as Record<string, unknown>;
  paths[`/api/${version}/big`] = {
    get: { operationId: `big${version}`, responses: { '200': { description: 'bytes' } } },
  };
}

/** An answer as a client compares it: status, headers but the date and a random request id, and body. */
async function answerOf(response: Response): Promise<string> {
  const headers = [...response.headers.entries()]
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => `${name}: ${name === 'x-request-id' && value.length === 36 ? '<uuid>' : value}`)
    .sort();
  const body = (await response.text()).replace(/"requestId":"[0-9a-f-]{36}"/, '"requestId":"<uuid>"');
  return [response.status, ...headers, body].join('\n');
}

describe('the thin data plane answers as Fastify does (versionary gateway in process)', () => {
  let python: PythonUpstream;
  let thin: TestGateway;
  let fastify: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    thin = await startTestGateway({ upstream: python.url, file, editDocument });
    fastify = await startTestGateway({
      upstream: python.url,
      file,
      editDocument,
      env: { VERSIONARY_TRUST_PROXY: '127.0.0.1' },
    });
  });
  after(async () => {
    await thin.stop();
    await fastify.stop();
    await python.stop();
  });

  const admin = { authorization: `Bearer ${gatewayAdminKey}` };
  const calls: Array<[string, string, Record<string, string>]> = [
    ['GET', '/api/v2/users/1', admin],
    ['GET', '/api/v1/users/1', admin],
    ['HEAD', '/api/v2/users/1', admin],
    ['GET', '/api/v2/users/7', admin],
    ['GET', '/api/v2/users', { ...admin, 'x-request-id': 'trace-1' }],
    ['GET', '/api/v2/users/1?fields=firstName', admin],
    ['GET', '/api/v2/users/1', {}],
    ['GET', '/api/v1/users/1', {}],
    ['GET', '/api/v2/users/1', { authorization: 'Bearer vk_0000000000000000.' + 'A'.repeat(43) }],
    ['GET', '/api/v2/users/1', { ...admin, accept: 'application/vnd.acme.v1+json' }],
    ['GET', '/api/v2/users/1', { ...admin, accept: 'text/html' }],
    ['GET', '/api/v2/users/1', { ...admin, 'if-none-match': 'x'.repeat(4001) }],
    ['GET', '/api/v2/cookies', { ...admin, 'if-none-match': '"up-1"' }],
    ['GET', '/api/v2/hop', admin],
    ['POST', '/api/v2/empty', admin],
    ['GET', '/api/v2/nowhere', admin],
    ['DELETE', '/api/v2/users/1', admin],
  ];
  for (const [method, path, headers] of calls)
    it(`${method} ${path} ${Object.keys(headers).join(', ') || 'without credentials'}`, async () => {
      const [a, b] = await Promise.all([thin, fastify].map((g) => fetch(g.base + path, { method, headers })));
      assert.equal(await answerOf(a!), await answerOf(b!));
    });

  it('a streamed answer arrives whole', async () => {
    const [a, b] = await Promise.all(
      [thin, fastify].map((g) => fetch(`${g.base}/api/v2/big?mb=3`, { headers: admin }).then((r) => r.arrayBuffer())),
    );
    assert.equal(a!.byteLength, 3 * 1024 * 1024);
    assert.deepEqual(Buffer.from(a!), Buffer.from(b!));
  });
});
