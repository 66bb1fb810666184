import { flags, readString, type CliCommand, type OptionValues } from './command.ts';

/** The flags of the commands that start a server (`serve`, `gateway`), each in place of its variable. */
const variables = { config: 'VERSIONARY_CONFIG', port: 'PORT', host: 'HOST' } as const;

export const listenOptions: CliCommand['options'] = flags('config port host');

/** The environment with the flags in place of their variables: a flag wins, and is checked the same way. */
export function listenEnv(
  env: Record<string, string | undefined>,
  values: OptionValues,
): Record<string, string | undefined> {
  const merged = { ...env };
  for (const [flag, variable] of Object.entries(variables)) {
    const value = readString(values, flag);
    if (value !== undefined) merged[variable] = value;
  }
  return merged;
}

/**
 * `npx versionary gateway` runs as npm → sh → node. On SIGTERM npm exits and its shell with it,
 * but the signal does not reach node, which would keep serving, orphaned and never drained. So a
 * server that npm started watches its parent: once it is gone (the process was adopted), it sends
 * itself SIGTERM, and the usual drain runs (`docs/operations.md`). Started otherwise (`node`,
 * the bin itself, a supervisor), it watches nothing: a shell's `nohup … &` may outlive its shell.
 */
export function drainWhenOrphaned(options: {
  env: Record<string, string | undefined>;
  stderr: (text: string) => void;
}) {
  if (!options.env.npm_command) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    options.stderr('versionary: npm, which started this process, has exited: shutting down as on SIGTERM\n');
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  // The watch never keeps the process alive by itself.
  timer.unref();
}
