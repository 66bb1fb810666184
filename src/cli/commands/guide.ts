import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { diffOpenApi, versionSunset } from '../../core/compat/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { createMigrationGuide, toHtml, toJson, toMarkdown } from '../../core/guide/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/time/index.ts';
import {
  type CliCommand,
  flags,
  readChoice,
  readString,
  readStrings,
  type OptionValues,
  ExitCode,
  UsageError,
} from '../command.ts';
import { loadWithPathPrefixes, pathPrefixHelp, pathPrefixOptions } from '../path-prefix-options.ts';

const renderers = { markdown: toMarkdown, html: toHtml, json: toJson } as const;

/** `versionary guide <old> <new> --from v1 --to v2`: write a migration guide. */
export const command: CliCommand = {
  name: 'guide',
  help: `Usage: npx versionary guide <old> <new> --from v1 --to v2 [options]

Options:
  --from NAME         name of the old version (required)
  --to NAME           name of the new version (required)
  --format F          markdown (default), html or json
  --out FILE          write to FILE instead of standard output
  --deprecated-at ISO deprecation date (default: now)
  --sunset-at ISO     sunset date: removed, requests answered 410 (default: the x-sunset the old
                      documents promise, else deprecated-at + 6 months of 30 days)
  --removed-at ISO    date the old code is deleted, no change for clients (default: deprecated-at + 12 months)
  --note TEXT         prose from a version change declaration (repeatable)
  --notes FILE        a JSON array of strings, or one note per line
  -h, --help          show this help

${pathPrefixHelp}

Exit codes: 0 written, 2 could not run.`,
  options: { ...pathPrefixOptions, ...flags('from to format out deprecated-at sunset-at removed-at note* notes') },
  positionals: { min: 2, max: 2, names: '<old> and <new>' },
  async run({ values, positionals, io }) {
    const from = readString(values, 'from');
    const to = readString(values, 'to');
    if (from === undefined || to === undefined) throw new UsageError('--from and --to are required');
    const format = readChoice(values, { name: 'format', choices: ['markdown', 'html', 'json'], fallback: 'markdown' });
    const { base, revision } = await loadWithPathPrefixes({ values, paths: positionals, io, refuseUnmatched: true });
    const { changes } = diffOpenApi({ base, revision, clock: { now: io.now } });
    const sunsetAt = oneSunset(readString(values, 'sunset-at'), versionSunset(base));
    const removedAt = readString(values, 'removed-at');
    const guide = createMigrationGuide({
      from,
      to,
      changes,
      deprecatedAt: readString(values, 'deprecated-at') ?? new Date(io.now()).toISOString(),
      ...(sunsetAt === undefined ? {} : { sunsetAt }),
      ...(removedAt === undefined ? {} : { removedAt }),
      notes: await readNotes(values, io.cwd),
      documents: { base, revision },
    });
    const text = renderers[format](guide);
    const out = readString(values, 'out');
    if (out === undefined) io.stdout(text);
    else {
      await writeFile(resolve(io.cwd, out), text, 'utf8');
      io.stderr(
        `Wrote ${out} (${guide.breaking.length} breaking, ${guide.risks.length} to check, ${guide.additive.length} additive).\n`,
      );
    }
    return ExitCode.Ok;
  },
};

/**
 * The guide quotes one sunset per version. When the old documents promise one (`x-sunset`, a
 * fixed `Sunset` header), that is the date clients were told and the rows quote, so the timeline
 * uses it; a `--sunset-at` that says otherwise is refused rather than printed beside it.
 */
function oneSunset(flag: string | undefined, promised: ReturnType<typeof versionSunset>): string | undefined {
  if (promised === undefined) return flag;
  if (flag !== undefined && parseIsoInstant(flag) !== promised.at) {
    const where = promised.operations.length === 0 ? '' : ` of ${promised.operations.join(', ')}`;
    throw new UsageError(
      `--sunset-at ${flag} disagrees with the sunset the old documents promise: ${promised.text} (${promised.source}${where}). A guide shows one sunset date: leave out --sunset-at, or change the documents.`,
    );
  }
  return formatIsoInstant(promised.at);
}

async function readNotes(values: OptionValues, cwd: string): Promise<string[]> {
  const inline = readStrings(values, 'note');
  const file = readString(values, 'notes');
  if (file === undefined) return inline;
  const text = await readFile(resolve(cwd, file), 'utf8').catch((error: Error) => {
    throw new VersionaryError({
      code: ErrorCode.SpecUnreadable,
      detail: `cannot read notes file ${file}: ${error.message}`,
    });
  });
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new UsageError(`${file} starts with "[" but is not valid JSON`);
    }
    if (!Array.isArray(parsed) || !parsed.every((n) => typeof n === 'string'))
      throw new UsageError(`${file} must hold a JSON array of strings`);
    return [...inline, ...parsed];
  }
  return [
    ...inline,
    ...trimmed
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== ''),
  ];
}
