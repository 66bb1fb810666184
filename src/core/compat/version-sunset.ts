import { parseIsoInstant } from '../time/index.ts';
import { toDocumentSet } from './document-set.ts';
import { listOperations } from './openapi-document.ts';
import { createRefResolver } from './ref-resolver.ts';
import { isObjectLike } from './schema-model.ts';
import { sunsetOf, type SunsetPromise } from './sunset.ts';

/** A version's sunset as its document promises it, and the operations that promise it. */
export interface VersionSunset extends SunsetPromise {
  /** `GET /users` for each operation promising this date; empty when only `info` does. */
  operations: string[];
}

/**
 * The sunset a version's document promises: `x-sunset` in `info` (a removed version's
 * document), else the latest date its operations promise (`x-sunset` on the operation or path,
 * or a fixed `Sunset` header), since the version is gone only when its last operation is. A
 * migration guide quotes this date in its timeline, so it never disagrees with its own rows.
 */
export function versionSunset(document: unknown): VersionSunset | undefined {
  const set = toDocumentSet(document);
  const root = set.documents.get(set.root);
  const info = isObjectLike(root) && isObjectLike(root.info) ? root.info : undefined;
  const declared = typeof info?.['x-sunset'] === 'string' ? fromInfo(info['x-sunset']) : undefined;
  if (declared !== undefined) return declared;
  const resolver = createRefResolver(set);
  let latest: VersionSunset | undefined;
  for (const op of listOperations({ set, resolver })) {
    const promise = sunsetOf(resolver, op);
    if (promise === undefined) continue;
    const name = `${op.method} ${op.path}`;
    if (latest === undefined || promise.at > latest.at) latest = { ...promise, operations: [name] };
    else if (promise.at === latest.at) latest.operations.push(name);
  }
  return latest;
}

function fromInfo(text: string): VersionSunset | undefined {
  const at = parseIsoInstant(text.trim());
  return at === undefined ? undefined : { at, text: text.trim(), source: 'x-sunset in info', operations: [] };
}
