import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { startService } from '../../src/compose/start-service.ts';

/** The service as `node dist/server.js` composes it, started in this process on a free port. */
export interface StartedService {
  port: number;
  base: string;
  /** What `process.exit` would have been called with, once the service stopped (or failed). */
  exitCode(): number | undefined;
  /** Drain and stop, as on SIGTERM; resolves with the exit code. */
  stop(): Promise<number>;
}

/**
 * Start the real composition (`startService`: its own listening server, storage, app) in-process,
 * with the config file `file` and an in-memory SQLite database, and wait until it is ready.
 */
export async function startTestService(
  options: { file?: Record<string, unknown>; env?: Record<string, string>; clock?: { now(): number } } = {},
): Promise<StartedService> {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-started-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(options.file ?? {}));
  let code: number | undefined;
  const running = await startService({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      VERSIONARY_ADMIN_KEY: 'test-admin-key-0123456789',
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      VERSIONARY_CONFIG: configPath,
      ...options.env,
    },
    readFile: (path) => readFileSync(path, 'utf8'),
    ...(options.clock ? { clock: options.clock } : {}),
    exit: (value) => {
      code = value;
    },
  });
  await running.ready;
  const port = running.address.port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    exitCode: () => code,
    stop: async () => {
      const result = await running.shutdown('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      return result;
    },
  };
}

/**
 * A management call on a started service with the admin key, its answer shaped as `inject()`
 * gives one, so the problem assertions of `assertions.ts` read a real socket's answer too.
 */
export function adminCaller(
  service: StartedService,
): (method: string, path: string, body?: unknown) => Promise<LightMyRequestResponse> {
  const headers = { authorization: 'Bearer test-admin-key-0123456789', 'content-type': 'application/json' };
  return async (method, path, body) => {
    const res = await fetch(`${service.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: text } as LightMyRequestResponse;
  };
}
