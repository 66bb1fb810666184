// Start-up cost of the service: time from spawn to the first 200 on /healthz, and the resident
// memory (RSS) of the server process once it answers. Median of several runs.
// Usage: node bench/startup.js [runs] -- <command...>   (default: node dist/server.js)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const args = process.argv.slice(2);
const sep = args.indexOf('--');
const runs = Number(args[0] && sep !== 0 ? args[0] : 5);
const command = sep >= 0 ? args.slice(sep + 1) : ['node', 'dist/server.js'];

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// CPU time (user + system) the server spent getting there: unlike wall time, a busy machine barely moves it.
const cpuMsOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
};
const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function once() {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'warn',
      VERSIONARY_ADMIN_KEY: 'startup-bench-admin-key-0001',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.status === 200) break;
      } catch {
        /* not up yet */
      }
      if (performance.now() - started > 60_000) throw new Error('no answer in 60 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    return { ms: performance.now() - started, cpuMs: cpuMsOf(child.pid), rssMb: rssOf(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
console.log(
  `${command.join(' ')}: first 200 after ${median(results.map((r) => r.ms)).toFixed(0)} ms wall, ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms CPU (median of ${runs}), RSS ${median(results.map((r) => r.rssMb)).toFixed(1)} MB`,
);
