import type { DocumentSet } from '../../core/compat/index.ts';
import { UsageError } from '../io.ts';
import { isPlainObject } from '../../core/versions/index.ts';

// A served version's name (versions are named v1, v2, …): an `info.version` of `1.4.0` names none.
const versionName = /^v[1-9]\d*$/;

/**
 * Refuse a gate version the base document does not describe: its `info.version` (when it names a
 * version) or the version segment all its paths share (`/api/v2/…`). Judged on another version's
 * usage, no row matches the document's operations and every change passes as Unaffected.
 */
export function assertDocumentVersion(
  version: string,
  base: DocumentSet,
  options: { documentName: string; flagged: boolean },
): void {
  const doc = base.documents.get(base.root) as { info?: { version?: unknown }; paths?: unknown } | undefined;
  const info = doc?.info?.version;
  const named = typeof info === 'string' && versionName.test(info) ? info : undefined;
  const paths = sharedVersionPath(Object.keys(isPlainObject(doc?.paths) ? doc.paths : {}));
  const said = [
    ...(named !== undefined && named !== version ? [`its info.version is "${named}"`] : []),
    ...(paths !== undefined && paths.version !== version ? [`its paths are under ${paths.prefix}`] : []),
  ];
  if (said.length === 0) return;
  const described = named ?? paths!.version;
  const chosen = options.flagged ? `--api-version ${version}` : `the info.version "${version}"`;
  throw new UsageError(
    `${chosen} is not the version of ${options.documentName}: ${said.join(', ')}; pass --api-version ${described}, or documents of ${version}`,
  );
}

/** The path up to its version segment (`/api/v2`), when every path has the same one. */
function sharedVersionPath(paths: readonly string[]): { prefix: string; version: string } | undefined {
  let found: { prefix: string; version: string } | undefined;
  for (const path of paths) {
    const segments = path.split('/');
    const at = segments.findIndex((s) => versionName.test(s));
    if (at === -1) return undefined;
    const prefix = segments.slice(0, at + 1).join('/');
    if (found && found.prefix !== prefix) return undefined;
    found ??= { prefix, version: segments[at]! };
  }
  return found;
}
