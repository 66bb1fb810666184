import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import { installedPackages, installTarballApp, spawnInApp, sqliteOnlyPeers } from '../support/tarball-app.ts';

const sdkPackages = ['@opentelemetry/sdk-node', '@fastify/otel', '@opentelemetry/instrumentation-undici'];

// The OpenTelemetry SDK is an optional peer: an install without it starts the service with or
// without OTEL_* set; set, one line says what to install.
test(
  'the service installed without the OpenTelemetry SDK starts, and with OTEL_* set says in one line what to install',
  { timeout: 600_000 },
  async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-no-otel-'));
    try {
      const app = await installTarballApp(tmp, sqliteOnlyPeers);
      const installed = installedPackages(app);
      for (const absent of sdkPackages) assert.ok(!installed.includes(absent), `${absent} is absent`);
      const serve = async (otel: Record<string, string>) => {
        const port = await freePort();
        const service = spawnInApp(process.execPath, ['node_modules/versionary/dist/server.js'], {
          cwd: app,
          env: {
            ...process.env,
            ...otel,
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'warn',
            DATABASE_URL: `sqlite:${join(tmp, `${port}.db`)}`,
            VERSIONARY_ADMIN_KEY: 'no-otel-admin-key-0001',
          },
        });
        try {
          await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 60_000).catch(
            () => {
              throw new Error(service.output());
            },
          );
          return service.output();
        } finally {
          await service.stop();
        }
      };
      await t.test('no OTEL_* variable: it starts and says nothing of OpenTelemetry', async () => {
        const output = await serve({});
        assert.doesNotMatch(output, /OpenTelemetry/);
      });
      await t.test('OTEL_EXPORTER_OTLP_ENDPOINT set: one line names the install command, and it serves', async () => {
        const output = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
        const lines = output.split('\n').filter((line) => line.includes('OpenTelemetry'));
        assert.equal(lines.length, 1, output);
        assert.match(lines[0]!, /npm install @opentelemetry\/sdk-node@"[^"]+" @fastify\/otel@"[^"]+"/);
      });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
