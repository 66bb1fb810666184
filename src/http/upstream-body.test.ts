import assert from 'node:assert/strict';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { UpstreamBody } from './upstream-body.ts';

describe('UpstreamBody', () => {
  it('passes the client body through, chunk for chunk, and ends with it', async () => {
    const source = new PassThrough();
    const body = new UpstreamBody(source);
    source.end('ab');
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'ab');
  });

  it('leaves the client body readable when undici destroys it, or when it is stopped', async () => {
    for (const end of ['destroy', 'stop'] as const) {
      const source = new PassThrough();
      const body = new UpstreamBody(source);
      body.resume();
      source.write('sent');
      await new Promise((resolve) => setImmediate(resolve));
      if (end === 'destroy') body.destroy(new Error('reset'));
      else body.stop();
      body.on('error', () => undefined);
      source.end('rest');
      // Paused, for the lingering close to drain.
      assert.equal(source.destroyed, false, end);
      assert.equal(source.isPaused(), true, end);
      const rest = once(source, 'data');
      source.resume();
      const [chunk] = (await rest) as [Buffer];
      assert.equal(chunk.toString(), 'rest', end);
    }
  });

  it('is destroyed when the client goes away before its body ended', async () => {
    const source = new PassThrough();
    const body = new UpstreamBody(source);
    const failed = once(body, 'error');
    body.resume();
    source.destroy();
    await failed;
    assert.equal(body.destroyed, true);
  });
});
