import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

// Python's http.client writes the whole body before it reads the answer: a server that closes
// early resets it (EPIPE) and the answer is lost, unless the body is drained (nginx's lingering_close).
const client = `
import http.client, json, sys
port, path, auth = int(sys.argv[1]), sys.argv[2], sys.argv[3]
body = b'x' * (8 * 1024 * 1024)
c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
headers = {'content-type': 'application/json', 'content-length': str(len(body))}
if auth: headers['authorization'] = auth
try:
    c.request('POST', path, body=body, headers=headers)
    r = c.getresponse()
    print(json.dumps({'status': r.status, 'type': r.getheader('content-type'), 'body': r.read().decode()}))
except Exception as e:
    print(json.dumps({'error': type(e).__name__ + ': ' + str(e)}))
`;

function pythonPost(
  port: string,
  path: string,
  auth: string,
): Promise<{ status?: number; type?: string; error?: string }> {
  return new Promise((resolve, reject) =>
    execFile('python3', ['-c', client, port, path, auth], { timeout: 30_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as { status?: number; type?: string; error?: string }),
    ),
  );
}

describe('gateway security: a client that writes 8 MiB before reading reads its early answer (versionary gateway as a process)', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let port: string;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({ upstream: python.url, file: { bodyLimit: 64 * 1024 } });
    port = new URL(gateway.base).port;
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  const cases: Array<[string, string, number]> = [
    ['/admin/v1/api-keys', `Bearer ${gatewayAdminKey}`, 413],
    ['/api/v2/echo', '', 401],
    ['/api/v2/echo', 'Bearer vk_nope.nope', 401],
    ['/nope', '', 413],
  ];
  for (const [path, auth, status] of cases)
    it(`POST ${path} ${auth ? 'with a credential' : 'anonymous'}: ${status} problem, not EPIPE`, async () => {
      // Twice: whether the answer beats the upload is a race, and each run may lose it.
      for (let i = 0; i < 2; i++) {
        const res = await pythonPost(port, path, auth);
        assert.equal(res.status, status, JSON.stringify(res));
        assert.match(res.type ?? '', /^application\/problem\+json/);
      }
    });
});
