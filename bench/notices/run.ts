// How many notices per second one worker plans and sends to a local SMTP server (in a child process).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestApp, adminHeaders } from '../../test/support/test-app.ts';
import { createClientWithKey, noticeConfig } from '../../test/notices/support.ts';

const clients = Number(process.env.NOTICE_CLIENTS ?? 500);
const child = fork(fileURLToPath(new URL('./smtp-sink.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
const results: Record<string, unknown> = {};
for (const pool of [false, true]) {
  const t = await createTestApp({
    files: { '/n.json': noticeConfig() },
    env: {
      VERSIONARY_CONFIG: '/n.json',
      VERSIONARY_SMTP_URL: `smtp://127.0.0.1:${port}${pool ? '?pool=true&maxConnections=8' : ''}`,
      VERSIONARY_MAIL_FROM: 'n@bench.test',
      VERSIONARY_NOTICE_SECRET: 'bench-secret-0123456789-0123456789',
    },
  });
  for (let i = 0; i < clients; i++) {
    const { key } = await createClientWithKey(t.app, { name: `c${i}`, contacts: [`dev@c${i}.test`], keyName: `k${i}` });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
  }
  const started = performance.now();
  const res = await t.app.inject({ method: 'POST', url: '/admin/v1/notices/run', headers: adminHeaders });
  const seconds = (performance.now() - started) / 1000;
  const report = res.json() as { sent: number; planned: number };
  results[pool ? 'pooled (8 connections)' : 'one connection per message'] = {
    clients,
    sent: report.sent,
    seconds: Number(seconds.toFixed(2)),
    noticesPerSecond: Math.round(report.sent / seconds),
  };
  await t.close();
}
child.send('stop');
console.log(
  JSON.stringify({ cpu: (await import('node:os')).cpus()[0]?.model, node: process.version, results }, null, 2),
);
