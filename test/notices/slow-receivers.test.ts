import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { adminHeaders, createTestApp, json } from '../support/test-app.ts';
import { createClientWithKey, noticeConfig, runNotices } from './support.ts';

type Listed = { data: Array<{ recipient: string; status: string; lastError: string | null; channel: string }> };
const secretEnv = { VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789' };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

describe('webhook receivers that stall or are no longer allowed', () => {
  const closers: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('a receiver that trickles its answer holds only its own delivery, and only until the deadline', async (t) => {
    // Answers at once, then a byte every half second for 30 s: never idle, never finished.
    const trickler = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 500);
      setTimeout(() => {
        clearInterval(timer);
        response.end();
      }, 30_000).unref();
      response.on('close', () => clearInterval(timer));
    });
    let normalAt: number | undefined;
    const normal = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        normalAt = Date.now();
        response.writeHead(204).end();
      });
    });
    const slowUrl = await listen(trickler);
    const fastUrl = await listen(normal);
    closers.push(
      () => {
        trickler.closeAllConnections();
        trickler.close();
      },
      () => {
        normal.close();
      },
    );
    const app = await createTestApp({
      files: { '/n.json': noticeConfig() },
      now: Date.now(),
      env: { VERSIONARY_CONFIG: '/n.json', VERSIONARY_DELIVERY_TIMEOUT_MS: '2000', ...secretEnv },
    });
    closers.push(() => app.close());
    // The slow client's webhook is created first, so its row is the first one claimed.
    const slow = await createClientWithKey(app.app, { name: 'Trickles', webhooks: [slowUrl], keyName: 'slow' });
    const fast = await createClientWithKey(app.app, { name: 'Answers', webhooks: [fastUrl], keyName: 'fast' });
    for (const key of [slow.key, fast.key])
      await app.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });

    const started = Date.now();
    const report = await runNotices(app.app);
    const took = Date.now() - started;
    assert.equal(normalAt !== undefined, true, 'the other client got its notice');
    const fastAfter = normalAt! - started;
    t.diagnostic(
      `pass with a trickling receiver: ${took} ms (deadline 2000 ms); the other client's notice arrived after ${fastAfter} ms`,
    );
    assert.ok(fastAfter < 1500, `the other client's notice waited ${fastAfter} ms`);
    assert.ok(took >= 1900, `the trickling delivery was cut at the deadline, not before: ${took} ms`);
    assert.ok(took < 6000, `the pass is bounded by the deadline: ${took} ms`);
    assert.deepEqual({ sent: report.sent, retrying: report.retrying }, { sent: 1, retrying: 1 });
    const rows = json<Listed>(
      await app.app.inject({ url: '/admin/v1/notices?status=retrying', headers: adminHeaders }),
    ).data;
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.lastError ?? '', /did not finish within 2000 ms/);
  });

  it('a webhook saved as an IP literal under an allowance is refused at delivery once the allowance is gone', async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(String(request.headers['webhook-id']));
        response.writeHead(204).end();
      });
    });
    const url = await listen(receiver);
    closers.push(() => {
      receiver.close();
    });
    const dir = mkdtempSync(join(tmpdir(), 'versionary-literal-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const databasePath = join(dir, 'db.sqlite');
    const allowed = await createTestApp({
      files: { '/n.json': noticeConfig() },
      databasePath,
      now: Date.now(),
      env: { VERSIONARY_CONFIG: '/n.json', ...secretEnv },
    });
    const { key } = await createClientWithKey(allowed.app, { name: 'Loopback', webhooks: [url], keyName: 'k' });
    await allowed.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    await allowed.close();

    // Restarted on the same database without `allowPrivateTargets`.
    const closed = await createTestApp({
      files: { '/n.json': noticeConfig({ webhooks: { allowPrivateTargets: [] } }) },
      databasePath,
      now: Date.now(),
      env: { VERSIONARY_CONFIG: '/n.json', ...secretEnv },
    });
    closers.push(() => closed.close());
    const report = await runNotices(closed.app);
    assert.equal(report.failed, 1);
    assert.deepEqual(received, [], 'nothing reached the loopback receiver');
    const rows = json<Listed>(
      await closed.app.inject({ url: '/admin/v1/notices?status=failed', headers: adminHeaders }),
    ).data;
    assert.match(rows[0]?.lastError ?? '', /127\.0\.0\.1 is a loopback address/);
  });
});
