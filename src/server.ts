import { readFileSync } from 'node:fs';
import { loadStartService } from './compose/load-service.ts';
import { startTelemetry } from './compose/telemetry.ts';

// The production command is this process itself (`node dist/server.js`), so SIGTERM from the
// orchestrator reaches it directly (docs/operations.md).
try {
  // Before the service's modules: the instrumentations attach to the apps as they are created.
  const telemetry = await startTelemetry({
    env: process.env,
    surface: 'service',
    warn: (line) => process.stderr.write(line),
  });
  const startService = await loadStartService(process.env);
  await startService({
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
    ...(telemetry ? { telemetry } : {}),
  });
} catch (error) {
  process.stderr.write(`versionary: cannot start: ${(error as Error).message}\n`);
  process.exit(1);
}
