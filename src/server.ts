import { readFileSync } from 'node:fs';
import { startService } from './compose/start-service.ts';

// The production command is this process itself (`node --import tsx src/server.ts`), so SIGTERM
// from the orchestrator reaches it directly (docs/operations.md).
await startService({ env: process.env, readFile: (path) => readFileSync(path, 'utf8') }).catch((error: Error & { code?: string }) => {
  process.stderr.write(`versionary: cannot start: ${error.message}\n`);
  process.exit(1);
});
