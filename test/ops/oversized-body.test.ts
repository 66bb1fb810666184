import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertProblemShape } from '../support/assertions.ts';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.ts';

describe('oversized bodies over a real socket', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it(
    'a 5 MB upload gets the 413 problem every time, never a reset (fetch, 20 times)',
    { timeout: 120_000 },
    async () => {
      const body = JSON.stringify({ name: 'big', nickname: 'n'.repeat(5 * 1024 * 1024) });
      const outcomes: string[] = [];
      for (let i = 0; i < 20; i++) {
        try {
          const res = await fetch(`${base}/api/v2/users`, {
            method: 'POST',
            headers: { ...adminHeaders, 'content-type': 'application/json' },
            body,
          });
          const problem = await res.json();
          assertProblemShape(problem, 413);
          assert.equal(problem.code, 'PAYLOAD_TOO_LARGE');
          outcomes.push(String(res.status));
        } catch (error) {
          outcomes.push(`error ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
        }
      }
      assert.deepEqual(
        outcomes,
        Array.from({ length: 20 }, () => '413'),
      );
    },
  );

  it(
    'a 5 MB upload streamed slowly without Content-Length gets the 413 problem every time (fetch, 20 times)',
    { timeout: 120_000 },
    async () => {
      const chunk = new Uint8Array(256 * 1024).fill(0x61);
      const outcomes: string[] = [];
      for (let i = 0; i < 20; i++) {
        let sent = 0;
        // Still uploading when the answer comes: the case where a plain close resets the connection.
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (sent >= 5 * 1024 * 1024) return controller.close();
            sent += chunk.length;
            await new Promise((r) => setTimeout(r, 2));
            controller.enqueue(chunk);
          },
        });
        try {
          const res = await fetch(`${base}/api/v2/users`, {
            method: 'POST',
            headers: { ...adminHeaders, 'content-type': 'application/json' },
            body,
            duplex: 'half',
          } as RequestInit);
          assert.equal((await res.json()).code, 'PAYLOAD_TOO_LARGE');
          outcomes.push(String(res.status));
        } catch (error) {
          outcomes.push(`error ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
        }
      }
      assert.deepEqual(
        outcomes,
        Array.from({ length: 20 }, () => '413'),
      );
    },
  );

  it('five 5 MB uploads at once all get their 413, and the service stays up', { timeout: 120_000 }, async () => {
    const body = new Uint8Array(5 * 1024 * 1024).fill(0x61);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${base}/api/v2/users`, {
          method: 'POST',
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          body,
        }).then(
          (r) => r.status,
          (e: Error) => e.message,
        ),
      ),
    );
    assert.deepEqual(results, [413, 413, 413, 413, 413]);
    assert.equal((await fetch(`${base}/livez`)).status, 200);
  });
});
