import { rewritePaths, suggestPathRewrites, type DocumentSet, type PathRewrite } from '../core/compat/index.ts';
import { flags, readString, type CliCommand, type CliIo, type OptionValues, UsageError } from './command.ts';
import { loadDocumentSet } from './load-document.ts';

/** oasdiff's four path flags, for every command that compares two documents. */
export const pathPrefixOptions: CliCommand['options'] = flags(
  'strip-prefix-base strip-prefix-revision prefix-base prefix-revision',
);

/** The `--help` paragraph of {@link pathPrefixOptions}. */
export const pathPrefixHelp = `Path prefixes (oasdiff's flags), applied before comparing:
  --strip-prefix-base P       strip P from the front of the paths of <old>
  --strip-prefix-revision P   strip P from the front of the paths of <new>
  --prefix-base P             then add P in front of the paths of <old>
  --prefix-revision P         then add P in front of the paths of <new>
  e.g. /api/v1/users against /api/v2/users: --strip-prefix-base /api/v1 --strip-prefix-revision /api/v2`;

/**
 * Load the two documents and rewrite their paths as the flags say, and, when no flag is given and
 * every path of both documents differs only by a version segment, write a hint naming the flags to
 * stderr (stdout stays the report, so `--format json` output remains valid JSON).
 */
export async function loadWithPathPrefixes(options: {
  values: OptionValues;
  paths: readonly string[];
  io: CliIo;
  /**
   * Refuse (exit 2) instead of hinting: a migration guide from documents whose operations never
   * match would list every operation as removed, a wrong document with exit 0.
   */
  refuseUnmatched?: boolean;
}): Promise<{ base: DocumentSet; revision: DocumentSet }> {
  const { values, io } = options;
  const [baseSet, revisionSet] = await Promise.all(options.paths.map((p) => loadDocumentSet(p, { cwd: io.cwd })));
  const rewrite = (side: 'base' | 'revision'): PathRewrite => ({
    strip: readPrefix(values, `strip-prefix-${side}`),
    prefix: readPrefix(values, `prefix-${side}`),
  });
  const [base, revision] = [rewrite('base'), rewrite('revision')];
  const flagged = [base.strip, base.prefix, revision.strip, revision.prefix].some((v) => v !== undefined);
  if (!flagged) {
    const hint = suggestPathRewrites(pathsOf(baseSet!), pathsOf(revisionSet!));
    if (hint) {
      const text =
        `every path differs only by its version segment (${hint.base}/… against ${hint.revision}/…), so no operation ` +
        `of one matches the other. Compare them with --strip-prefix-base ${hint.base} --strip-prefix-revision ${hint.revision}` +
        `${hint.common === '' ? '' : ` --prefix-base ${hint.common} --prefix-revision ${hint.common}`}.`;
      if (options.refuseUnmatched === true) throw new UsageError(text);
      io.stderr(`hint: ${text}\n`);
    }
  }
  return { base: rewritePaths(baseSet!, base), revision: rewritePaths(revisionSet!, revision) };
}

function readPrefix(values: OptionValues, name: string): string | undefined {
  const value = readString(values, name);
  if (value !== undefined && value !== '' && !value.startsWith('/'))
    throw new UsageError(`--${name} must be a path prefix starting with "/", got "${value}"`);
  return value;
}

function pathsOf(set: DocumentSet): string[] {
  const doc = set.documents.get(set.root) as { paths?: unknown } | undefined;
  return typeof doc?.paths === 'object' && doc.paths !== null ? Object.keys(doc.paths) : [];
}
