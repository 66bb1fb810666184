import { parseIsoInstant } from '../../core/time/index.ts';
import { diffOpenApi, formatJson, formatMarkdown, formatText, type DiffResult } from '../../core/compat/index.ts';
import { defineCommand, readChoice, readString } from '../command.ts';
import { ExitCode, UsageError } from '../io.ts';
import { shortenUris } from '../describe-failure.ts';
import { loadDocumentSet } from '../load-document.ts';
import { applyPathPrefixes, pathPrefixHelp, pathPrefixOptions } from '../path-prefix-options.ts';

const formats = { text: formatText, markdown: formatMarkdown, json: formatJson } as const;

/** `versionary diff <old> <new>`: classify changes between two OpenAPI files; exit 1 on breaking. */
export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'Compare two OpenAPI descriptions and classify each change',
  help: `Usage: npx versionary diff <old> <new> [--format text|markdown|json] [--fail-on breaking|risk] [--now ISO]
                            [--audience public|enterprise]
                            [--strip-prefix-base P] [--strip-prefix-revision P] [--prefix-base P] [--prefix-revision P]

Compares two OpenAPI 3.0/3.1 files (JSON or YAML; $refs across files are followed) and
reports every change as breaking, risk or compatible. See docs/compatibility.md for rule ids.

Options:
  --format    text (default), markdown or json
  --fail-on   breaking (default): exit 1 when a breaking change is found
              risk: exit 1 when a breaking change or a risk is found
  --now       the instant sunset dates are judged against (ISO 8601, default: now);
              an operation, property or parameter removed before its x-sunset date is breaking
  --audience  public (default) or enterprise: the notice (180 or 360 days) a property or
              parameter newly deprecated with an x-sunset date must give, or it is breaking
  -h, --help  show this help

${pathPrefixHelp}

Exit codes: 0 no failing change, 1 failing changes found, 2 could not run.`,
  options: {
    format: { type: 'string' },
    'fail-on': { type: 'string' },
    now: { type: 'string' },
    audience: { type: 'string' },
    ...pathPrefixOptions,
  },
  positionals: { min: 2, max: 2, names: '<old> and <new>' },
  async run({ values, positionals, io }) {
    const format = readChoice(values, { name: 'format', choices: ['text', 'markdown', 'json'], fallback: 'text' });
    const failOn = readChoice(values, { name: 'fail-on', choices: ['breaking', 'risk'], fallback: 'breaking' });
    const audience = readChoice(values, { name: 'audience', choices: ['public', 'enterprise'], fallback: 'public' });
    const [oldPath, newPath] = positionals as [string, string];
    const loaded = await Promise.all([
      loadDocumentSet(oldPath, { cwd: io.cwd }),
      loadDocumentSet(newPath, { cwd: io.cwd }),
    ]);
    const { base, revision } = applyPathPrefixes({ values, base: loaded[0], revision: loaded[1], stderr: io.stderr });
    const now = readNow(readString(values, 'now')) ?? io.now();
    const result = diffOpenApi({ base, revision, clock: { now: () => now }, audience });
    io.stdout(formats[format](withRelativeDocuments(result, io.cwd)));
    return exitCodeFor(result, failOn);
  },
});

/** Exit code of a diff for CI: 1 when a change at or above the `failOn` level exists. */
export function exitCodeFor(result: DiffResult, failOn: 'breaking' | 'risk'): number {
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
