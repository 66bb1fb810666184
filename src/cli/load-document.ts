import { parseDocument } from 'yaml';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  assertOpenApiDocument,
  assertRefsResolve,
  collectExternalRefs,
  type DocumentSet,
} from '../core/compat/index.ts';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { isPlainObject } from '../core/versions/index.ts';

/**
 * Read an OpenAPI file (JSON or YAML) and every file its `$ref`s reach, into a {@link DocumentSet}
 * for core, checked to be OpenAPI 3.x with every `$ref` resolving. Fails with `SPEC_UNREADABLE`,
 * `SPEC_INVALID` or `REF_BROKEN`, naming the file and place.
 */
export async function loadDocumentSet(path: string, options: { cwd: string }): Promise<DocumentSet> {
  const absolute = isAbsolute(path) ? path : resolve(options.cwd, path);
  const root = pathToFileURL(absolute).href;
  const documents = new Map<string, unknown>();
  const queue: { uri: string; from?: string }[] = [{ uri: root }];
  while (queue.length > 0) {
    const next = queue.shift() as { uri: string; from?: string };
    if (documents.has(next.uri)) continue;
    const doc = await readDocument(next);
    documents.set(next.uri, doc);
    for (const ref of collectExternalRefs(doc, next.uri)) {
      if (!documents.has(ref.target))
        queue.push({ uri: ref.target, from: `$ref "${ref.ref}" at ${next.uri}#${ref.at}` });
    }
  }
  const set: DocumentSet = { root, documents };
  assertComplete(assertOpenApiDocument(set), root);
  assertRefsResolve(set);
  return set;
}

/**
 * A file with `openapi` but no `info` or no `paths` is a fragment, not a description: comparing
 * it would report every operation of the other side as removed or added, and linting it would
 * find nothing. OpenAPI 3.1 lets `webhooks` or `components` stand in for `paths`.
 */
function assertComplete(doc: Record<string, unknown>, uri: string): void {
  const missing: string[] = [];
  if (!isPlainObject(doc.info)) missing.push('"info"');
  const is30 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0');
  const hasPaths =
    isPlainObject(doc.paths) || (!is30 && (isPlainObject(doc.webhooks) || isPlainObject(doc.components)));
  if (!hasPaths) missing.push(is30 ? '"paths"' : '"paths" (or "webhooks" or "components")');
  if (missing.length === 0) return;
  throw new VersionaryError({
    code: ErrorCode.SpecInvalid,
    detail: `${uri}: an incomplete OpenAPI document, without ${missing.join(' and ')}; it cannot be compared or linted.`,
  });
}

async function readDocument(target: { uri: string; from?: string }): Promise<unknown> {
  if (!target.uri.startsWith('file:')) {
    throw new VersionaryError({
      code: ErrorCode.RefBroken,
      detail: `Broken $ref: ${target.from ?? target.uri} points to ${target.uri}; only local files are followed.`,
    });
  }
  const file = fileURLToPath(target.uri);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'no such file' : error.message;
    throw new VersionaryError(
      target.from === undefined
        ? { code: ErrorCode.SpecUnreadable, detail: `cannot read ${target.uri}: ${reason}.` }
        : { code: ErrorCode.RefBroken, detail: `Broken $ref: ${target.from} points to ${target.uri} (${reason}).` },
    );
  });
  return parseText({ text, name: target.uri });
}

/**
 * Parse JSON or YAML text; a syntax error becomes `SPEC_INVALID` naming the file, line and column.
 * `.json` files are parsed as JSON (fast path); anything else as YAML, which also reads JSON.
 */
export function parseText(input: { text: string; name: string }): unknown {
  if (/\.json$/i.test(input.name)) return parseJson(input);
  const doc = parseDocument(input.text, { uniqueKeys: true, prettyErrors: true });
  const [error] = doc.errors;
  if (error !== undefined) {
    const pos = error.linePos?.[0];
    const where = pos === undefined ? '' : `:${pos.line}:${pos.col}`;
    throw invalid(
      `${input.name}${where}: invalid YAML: ${(error.message.split('\n')[0] ?? error.code).replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  return doc.toJS({ maxAliasCount: 1000 });
}

function parseJson(input: { text: string; name: string }): unknown {
  try {
    return JSON.parse(input.text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // JSON.parse names no line; the YAML parser reads JSON too and does.
    const pos = parseDocument(input.text).errors[0]?.linePos?.[0];
    const where = pos === undefined ? '' : `:${pos.line}:${pos.col}`;
    const reason = (message.split('\n')[0] ?? message)
      .replace(/,\s*(\.\.\.)?".*$/s, '')
      .replace(/ in JSON at position \d+.*$/, '');
    throw invalid(`${input.name}${where}: invalid JSON: ${reason}`);
  }
}

function invalid(detail: string): VersionaryError {
  return new VersionaryError({ code: ErrorCode.SpecInvalid, detail });
}
