import { parseDocument } from 'yaml';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';

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
