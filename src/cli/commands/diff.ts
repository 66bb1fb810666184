import { parseIsoInstant } from '../../core/time/index.ts';
import { diffOpenApi, formatJson, formatMarkdown, formatText, type DiffResult } from '../../core/compat/index.ts';
import { type CliCommand, flags, readChoice, readString, ExitCode, UsageError } from '../command.ts';
import { shortenUris } from '../describe-failure.ts';
import { gateOptions, isGateRun, runGate } from '../gate/run-gate.ts';
import { loadWithPathPrefixes, pathPrefixHelp, pathPrefixOptions } from '../path-prefix-options.ts';

const formats = { text: formatText, markdown: formatMarkdown, json: formatJson } as const;

/** `versionary diff <old> <new>`: classify changes between two OpenAPI files; exit 1 on breaking. */
export const command: CliCommand = {
  name: 'diff',
  help: `Usage: npx versionary diff <old> <new> [--format text|markdown|json|github|sarif] [--fail-on breaking|risk]
                            [--now ISO] [--audience public|enterprise]
                            [--server URL --key KEY [--window 7d] [--threshold 1|5%] [--exclude-client ID]...]
                            [--waivers FILE] [--api-version NAME]
                            [--strip-prefix-base P] [--strip-prefix-revision P] [--prefix-base P] [--prefix-revision P]

Compares two OpenAPI 3.0/3.1 files (JSON or YAML; $refs across files are followed) and
reports every change as breaking, risk or compatible. See docs/compatibility.md for rule ids.

With --server, each breaking and risk change is judged by the calls a running Versionary service
recorded for the base document's version (GET /admin/v1/usage/operations) and by its approvals
(GET /admin/v1/approvals): Broken when a client called an operation it reaches, Unaffected when
none did, Approved when an approval or a waiver names its fingerprint. Exit 1 only when a Broken
change remains; exit 2 when the usage cannot be read, or a version or excluded client is unknown
(never a silent pass). Each change judged with no usage row for what it reaches says so. The report names each
change's fingerprint, the operations it reaches and, per client hurt, its name, calls in the
window, last call and whether notices reach it.

Options:
  --format    text (default), markdown or json; github (workflow commands) and sarif (SARIF 2.1.0)
  --fail-on   breaking (default): exit 1 when a breaking change is found
              risk: exit 1 when a breaking change or a risk is found
  --now       the instant sunset dates are judged against (ISO 8601, default: now);
              an operation, property or parameter removed before its x-sunset date is breaking
  --audience  public (default) or enterprise: the notice (180 or 360 days) a property or
              parameter newly deprecated with an x-sunset date must give, or it is breaking
  --server          a running Versionary service whose usage judges the changes
  --key             its admin key (or VERSIONARY_KEY)
  --window          how far back usage counts: days or hours (default 7d)
  --threshold       calls a client must have made to count (default 1), or a share of the
                    operation's calls in the window (5%)
  --exclude-client  a client id whose calls do not count (repeatable)
  --waivers         a JSON or YAML file of accepted changes, also without --server:
                    { "waivers": [{ "fingerprint", "reason", "expires"? }] }; expired ones fail again
  --api-version     the version the usage is read for (default: the base document's info.version);
                    one the service does not serve is exit 2, as is one the base document does not
                    describe (its info.version, its paths' /v<n>), and any option given an empty value
  -h, --help        show this help

${pathPrefixHelp}

Exit codes: 0 no failing change, 1 failing changes found, 2 could not run.`,
  options: { ...pathPrefixOptions, ...gateOptions, ...flags('format fail-on now audience') },
  positionals: { min: 2, max: 2, names: '<old> and <new>' },
  async run({ values, positionals, io }) {
    const format = readChoice(values, {
      name: 'format',
      choices: ['text', 'markdown', 'json', 'github', 'sarif'],
      fallback: 'text',
    });
    const failOn = readChoice(values, { name: 'fail-on', choices: ['breaking', 'risk'], fallback: 'breaking' });
    const audience = readChoice(values, { name: 'audience', choices: ['public', 'enterprise'], fallback: 'public' });
    const [oldPath, newPath] = positionals as [string, string];
    const { base, revision } = await loadWithPathPrefixes({ values, paths: positionals, io });
    const now = readNow(readString(values, 'now')) ?? io.now();
    const result = withRelativeDocuments(diffOpenApi({ base, revision, clock: { now: () => now }, audience }), io.cwd);
    if (isGateRun(values, format))
      return runGate({ result, base, values, io, now, format, failOn, basePath: oldPath, revisionPath: newPath });
    io.stdout(formats[format as keyof typeof formats](result));
    return exitCodeFor(result, failOn);
  },
};

/** Exit code of a diff for CI: 1 when a change at or above the `failOn` level exists. */
function exitCodeFor(result: DiffResult, failOn: 'breaking' | 'risk'): number {
  const failing = result.summary.breaking + (failOn === 'risk' ? result.summary.risk : 0);
  return failing > 0 ? ExitCode.Findings : ExitCode.Ok;
}

/** `--now` pins the clock so a CI run (or a test) judges sunset dates at a chosen instant. */
function readNow(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseIsoInstant(text.trim());
  if (ms === undefined) throw new UsageError(`--now must be an ISO 8601 date or instant, got "${text}"`);
  return ms;
}

/** Changes found in a referenced file name it relative to the working directory, as a user typed it. */
function withRelativeDocuments(result: DiffResult, cwd: string): DiffResult {
  const changes = result.changes.map((c) =>
    c.location.document === undefined
      ? c
      : { ...c, location: { ...c.location, document: shortenUris(c.location.document, cwd) } },
  );
  return { ...result, changes };
}
