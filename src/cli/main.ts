import { parseArgs } from 'node:util';
import { type CliCommand, createProcessIo, ExitCode, UsageError, type CliIo } from './command.ts';
import { commandAliases, commands } from './commands/index.ts';
import { describeFailure } from './describe-failure.ts';

/**
 * Run the `versionary` CLI with the given arguments and resolve to the exit code. Never throws:
 * every failure becomes a message on stderr and exit code 2.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [given, ...rest] = argv;
  const name = given !== undefined && Object.hasOwn(commandAliases, given) ? commandAliases[given] : given;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io[name === undefined ? 'stderr' : 'stdout'](globalHelp());
    return name === undefined ? ExitCode.Error : ExitCode.Ok;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (entry === undefined) {
    io.stderr(`versionary: unknown command "${name}".\n\n${globalHelp()}`);
    return ExitCode.Error;
  }
  let command: CliCommand | undefined;
  try {
    command = await entry.load();
    return await runCommand(command, { args: rest, io });
  } catch (error) {
    // A usage mistake shows the command's own usage line, so the fix is in sight without another run.
    if (command !== undefined && error instanceof UsageError)
      io.stderr(
        `versionary ${command.name}: ${error.message}\n\n${command.help.split('\n\n')[0]}\n\nRun "npx versionary ${command.name} --help" for every option.\n`,
      );
    else io.stderr(`versionary ${command?.name ?? name}: ${describeFailure(error, io.cwd)}\n`);
    return ExitCode.Error;
  }
}

async function runCommand(command: CliCommand, input: { args: string[]; io: CliIo }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: input.args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error, command));
  }
  if (parsed.values.help === true) {
    input.io.stdout(`${command.help}\n`);
    return ExitCode.Ok;
  }
  assertNoEmptyValue(parsed.values);
  const { min, max, names } = command.positionals ?? { min: 0, max: 0, names: '' };
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new UsageError(`expected ${names}, got ${parsed.positionals.length} argument(s)`);
  }
  return command.run({ values: parsed.values, positionals: parsed.positionals, io: input.io });
}

/**
 * `--api-version "$V"` with V unset must not read as "no filter": an option given with an empty
 * (or blank) value is refused, naming it, whatever the command. No check passes on silence.
 */
function assertNoEmptyValue(values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values))
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string' && v.trim() === '')
        throw new UsageError(`option --${name} is empty: give it a value, or leave the option out`);
}

/** parseArgs's failures in the CLI's own words (its text tells how to pass a positional starting with '-'). */
function describeParseError(error: unknown, command: CliCommand): string {
  const e = error as { code?: string; message?: string };
  const option = /'(?:-\w, )?(--?[^'\s,]*)/.exec(e.message ?? '')?.[1] ?? '';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown option ${option}${Object.keys(command.options).length === 0 ? ' (this command takes none)' : ''}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return /argument missing/.test(e.message ?? '')
      ? `option ${option} needs a value`
      : `option ${option} takes no value`;
  return e.message ?? String(error);
}

function globalHelp(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const list = Object.entries(commands)
    .map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`)
    .join('\n');
  // npm puts a package's bin in node_modules/.bin, not on the PATH: npx finds it there.
  return (
    `Usage: npx versionary <command> [options]\n\nCommands:\n${list}\n\nRun "npx versionary <command> --help" for a command's options.\n` +
    'Without npx: npm link in this repository (or npm install --global on the tarball npm pack writes) puts versionary on the PATH.\n' +
    'Exit codes: 0 success, 1 check failed, 2 could not run.\n'
  );
}

/** Entry point for `bin/versionary.js`: runs against the real process. */
export async function main(argv: readonly string[]): Promise<number> {
  return runCli(argv, createProcessIo());
}
