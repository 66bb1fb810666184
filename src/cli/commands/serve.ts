import { readFileSync } from 'node:fs';
import { loadStartService } from '../../compose/load-service.ts';
import { type CliCommand, ExitCode } from '../command.ts';
import { drainWhenOrphaned, listenEnv, listenOptions } from '../listen-options.ts';

/** `versionary serve`: start the reference service, as `npm start` does. */
export const command: CliCommand = {
  name: 'serve',
  help: `Usage: npx versionary serve [--config <file>] [--port <port>] [--host <host>]

Options (each wins over its variable): --config as VERSIONARY_CONFIG, --port as PORT, --host as HOST.

Configured by the environment: PORT, HOST, DATABASE_URL, VERSIONARY_CONFIG, LOG_LEVEL,
VERSIONARY_ADMIN_KEY, VERSIONARY_JWT_*, VERSIONARY_REDIS_URL (see the README). Stops cleanly on
SIGTERM or SIGINT; started by npx, also when npm exits (npm does not pass SIGTERM on).`,
  options: listenOptions,
  async run({ io, values }) {
    const env = listenEnv(io.env ?? {}, values);
    // Imported here, not at the top: the other commands run without the service's packages.
    const startService = await loadStartService(env);
    await startService({ env, readFile: (p) => readFileSync(p, 'utf8') });
    drainWhenOrphaned({ env, stderr: io.stderr });
    // The server keeps the process alive; the exit code comes from the signal handler.
    return await new Promise<number>(() => {}).then(() => ExitCode.Ok);
  },
};
