import { singleLineTextProblem } from '../core/text/index.ts';
import type { ParseArgsConfig } from 'node:util';

/** Option values as node:util parseArgs returns them. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One `versionary <name>` command: a file in `src/cli/commands/` plus a registry line. */
export interface CliCommand {
  name: string;
  /** Full `--help` text. */
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** The arguments it takes; none when left out. */
  positionals?: { min: number; max: number; names: string };
  /** Resolves to the process exit code. */
  run(input: { values: OptionValues; positionals: string[]; io: CliIo }): Promise<number>;
}

/** A command as the registry lists it: its line in the command list, and its module, imported when it runs. */
export interface CommandEntry {
  /** One line for the command list. */
  summary: string;
  load(): Promise<CliCommand>;
}

/**
 * parseArgs options, declared on one line: `name` takes a value, `name*` takes one and may be
 * given again, `name?` is a switch that takes none.
 */
export function flags(spec: string): CliCommand['options'] {
  return Object.fromEntries(
    spec.split(' ').map((flag) => {
      const name = flag.replace(/[*?]$/, '');
      if (flag.endsWith('?')) return [name, { type: 'boolean' }];
      return [name, { type: 'string', ...(flag.endsWith('*') ? { multiple: true } : {}) }];
    }),
  );
}

/** Read a string option restricted to a list of choices. */
export function readChoice<T extends string>(
  values: OptionValues,
  spec: { name: string; choices: readonly T[]; fallback: T },
): T {
  const raw = values[spec.name];
  if (raw === undefined) return spec.fallback;
  if (typeof raw !== 'string' || !(spec.choices as readonly string[]).includes(raw)) {
    throw new UsageError(`--${spec.name} must be one of ${spec.choices.join(', ')} (got ${String(raw)})`);
  }
  return raw as T;
}

/** Read a repeatable string option; none given is an empty list. */
export function readStrings(values: OptionValues, name: string): string[] {
  const raw = values[name];
  return Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
}

export function readString(values: OptionValues, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** The admin key a `--server` call sends: `--key`, else VERSIONARY_KEY. */
export function adminKey(values: OptionValues, io: CliIo): string {
  const key = readString(values, 'key') ?? io.env?.VERSIONARY_KEY;
  if (!key) throw new UsageError('--server needs an admin key: --key <key> or VERSIONARY_KEY');
  return key;
}

/** A string option printed in tables and logs, so one line of text; `missing` is the usage error when it is left out. */
export function readLine(values: OptionValues, name: string, missing?: string): string | undefined {
  const value = readString(values, name);
  if (value === undefined && missing !== undefined) throw new UsageError(missing);
  const problem = value === undefined ? undefined : singleLineTextProblem(value, `--${name}`);
  if (problem) throw new UsageError(problem);
  return value;
}

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
  override name = 'UsageError';
}

export function createProcessIo(): CliIo {
  // A closed pipe (`versionary diff ... | head`) is the reader's choice, not an error to report.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    now: () => Date.now(),
  };
}
