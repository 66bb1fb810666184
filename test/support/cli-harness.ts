import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/command.ts';
import { runCli } from '../../src/cli/main.ts';

/** What one CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * For CLI tests: a throwaway directory with an SQLite database, and a `cli` that runs the CLI
 * in-process against it at a fixed instant, capturing what it prints. `cleanup` removes the folder.
 */
export function createCliHarness(prefix: string): {
  dir: string;
  env: Record<string, string>;
  cli: (args: string[]) => Promise<CliRun>;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'v.db')}` };
  const cli = async (args: string[]): Promise<CliRun> => {
    const out = { stdout: '', stderr: '' };
    const io: CliIo = {
      stdout: (t) => {
        out.stdout += t;
      },
      stderr: (t) => {
        out.stderr += t;
      },
      cwd: dir,
      now: () => Date.UTC(2026, 0, 1),
      env,
    };
    const code = await runCli(args, io);
    return { code, ...out };
  };
  return { dir, env, cli, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
