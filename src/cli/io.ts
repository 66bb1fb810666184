/** What a command may touch of the outside world; tests pass an in-memory one. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Directory that relative file arguments are read from. */
  cwd: string;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Environment for commands that open the database (`DATABASE_URL`, `VERSIONARY_CONFIG`, ...). */
  env?: Record<string, string | undefined>;
}

/** Exit codes every command shares: CI reads them. */
export const ExitCode = {
  Ok: 0,
  /** Breaking changes or lint findings: the check ran and failed. */
  Findings: 1,
  /** The check could not run: bad usage, unreadable or invalid input. */
  Error: 2,
} as const;

/** A command-line mistake: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function createProcessIo(): CliIo {
  // A closed pipe (`versionary diff ... | head`) is the reader's choice, not an error to report.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    cwd: process.cwd(),
    env: process.env,
    now: () => Date.now(),
  };
}
