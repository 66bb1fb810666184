import { readFileSync } from 'node:fs';
import { loadStartService } from './compose/load-service.ts';

// The production command is this process itself (`node dist/server.js`), so SIGTERM from the
// orchestrator reaches it directly (docs/operations.md).
try {
  const startService = await loadStartService(process.env);
  await startService({ env: process.env, readFile: (path) => readFileSync(path, 'utf8') });
} catch (error) {
  process.stderr.write(`versionary: cannot start: ${(error as Error).message}\n`);
  process.exit(1);
}
