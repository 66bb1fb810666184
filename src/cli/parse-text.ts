import { parseDocument } from 'yaml';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';

/**
 * Parse JSON or YAML text; a syntax error becomes `SPEC_INVALID` naming the file, line and column.
 * `.json` files are parsed as JSON (fast path); anything else as YAML, which also reads JSON.
 *
 * @example
 * ```ts
 * parseText({ text: 'openapi: 3.1.0', name: 'api.yaml' }); // { openapi: '3.1.0' }
 * ```
 */
export function parseText(input: { text: string; name: string }): unknown {
  if (/\.json$/i.test(input.name)) return parseJson(input);
  const doc = parseDocument(input.text, { uniqueKeys: true, prettyErrors: false });
  const [error] = doc.errors;
  if (error !== undefined) {
    const pos = error.linePos?.[0];
    const where = pos === undefined ? '' : `:${pos.line}:${pos.col}`;
    throw invalid(`${input.name}${where}: invalid YAML: ${error.message.split('\n')[0] ?? error.code}`);
  }
  return doc.toJS({ maxAliasCount: 1000 });
}

function parseJson(input: { text: string; name: string }): unknown {
  try {
    return JSON.parse(input.text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /position (\d+)/.exec(message);
    let where = '';
    if (at?.[1] !== undefined) {
      const before = input.text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      const col = Number(at[1]) - before.lastIndexOf('\n');
      where = `:${line}:${col}`;
    }
    throw invalid(`${input.name}${where}: invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

function invalid(detail: string): VersionaryError {
  return new VersionaryError({ code: ErrorCode.SpecInvalid, detail });
}
