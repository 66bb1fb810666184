import type { ParseArgsConfig } from 'node:util';
import { UsageError, type CliIo } from './io.ts';

/** Option values as node:util parseArgs returns them. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface CommandInput {
  values: OptionValues;
  positionals: string[];
  io: CliIo;
}

/** One `versionary <name>` command: a file in `src/cli/commands/` plus a registry line. */
export interface CliCommand {
  name: string;
  /** Full `--help` text. */
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals: { min: number; max: number; names: string };
  /** Resolves to the process exit code. */
  run(input: CommandInput): Promise<number>;
}

/** A command as the registry lists it: its line in the command list, and its module, imported when it runs. */
export interface CommandEntry {
  /** One line for the command list. */
  summary: string;
  load(): Promise<CliCommand>;
}

/** Identity helper that type-checks a command definition. */
export function defineCommand(command: CliCommand): CliCommand {
  return command;
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
