import { lintOpenApi, formatFindingsJson, formatFindingsText } from '../../core/lint/index.ts';
import { type CliCommand, flags, readChoice, readStrings, ExitCode } from '../command.ts';
import { loadDocumentSet } from '../load-document.ts';

/** `versionary lint <openapi>`: check an OpenAPI file against the REST conventions. */
export const command: CliCommand = {
  name: 'lint',
  help: `Usage: npx versionary lint <openapi> [--format text|json] [--allow SEGMENT]...

Rules: collection-not-plural, identifier-in-query, unversioned-path,
error-not-problem-details, deprecated-without-sunset, and for OpenAPI 3.2
additional-operation-fixed-method, querystring-parameter-conflict (see docs/compatibility.md).

Options:
  --format    text (default) or json
  --allow     a path segment that is not a collection (repeatable), e.g. --allow checkout
  -h, --help  show this help

Exit codes: 0 clean, 1 findings, 2 could not run.`,
  options: flags('format allow*'),
  positionals: { min: 1, max: 1, names: '<openapi>' },
  async run({ values, positionals, io }) {
    const format = readChoice(values, { name: 'format', choices: ['text', 'json'], fallback: 'text' });
    const allow = readStrings(values, 'allow');
    const set = await loadDocumentSet(positionals[0] as string, { cwd: io.cwd });
    const findings = lintOpenApi(set, { allowSegments: allow });
    io.stdout(format === 'json' ? formatFindingsJson(findings) : formatFindingsText(findings));
    return findings.length > 0 ? ExitCode.Findings : ExitCode.Ok;
  },
};
