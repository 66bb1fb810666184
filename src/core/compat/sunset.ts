import { parseImfFixdate, parseIsoInstant } from '../time/index.ts';
import type { DocNode } from './diff-context.ts';
import { joinPointer } from './json-pointer.ts';
import type { OperationEntry } from './openapi-document.ts';
import type { RefResolver } from './ref-resolver.ts';
import { isObjectLike } from './schema-model.ts';

/** The sunset date promised for an operation, and where the description promised it. */
export interface SunsetPromise {
  /** Milliseconds since the Unix epoch. */
  at: number;
  /** The date as written. */
  text: string;
  /** `x-sunset on the operation`, `x-sunset on the path` or `the Sunset response header`. */
  source: string;
}

/**
 * Read the sunset date an operation promises: `x-sunset` on the operation, else on its path
 * item, else a documented `Sunset` response header with one fixed value (`const`, a one-value
 * `enum` or a `default` in its schema). Dates are ISO 8601 or HTTP-dates (RFC 8594); a value
 * that does not parse promises nothing.
 */
export function sunsetOf(resolver: RefResolver, entry: OperationEntry): SunsetPromise | undefined {
  const op = entry.operation.value;
  const item = entry.pathItem.value;
  return (
    parseSunset(isObjectLike(op) ? op['x-sunset'] : undefined, 'x-sunset on the operation') ??
    parseSunset(isObjectLike(item) ? item['x-sunset'] : undefined, 'x-sunset on the path') ??
    parseSunset(sunsetHeaderValue(resolver, entry.operation), 'the Sunset response header')
  );
}

/** Read one written sunset date (ISO 8601 or an HTTP-date); anything else promises nothing. */
export function parseSunset(value: unknown, source: string): SunsetPromise | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const at = parseIsoInstant(text) ?? parseImfFixdate(text);
  return at === undefined ? undefined : { at, text, source };
}

function sunsetHeaderValue(resolver: RefResolver, operation: DocNode): unknown {
  const responses = isObjectLike(operation.value) ? operation.value.responses : undefined;
  if (!isObjectLike(responses)) return undefined;
  for (const [status, raw] of Object.entries(responses)) {
    const response = resolver.resolve({
      uri: operation.uri,
      pointer: joinPointer(operation.pointer, 'responses', status),
      value: raw,
    });
    const headers = isObjectLike(response.value) ? response.value.headers : undefined;
    if (!isObjectLike(headers)) continue;
    for (const [name, rawHeader] of Object.entries(headers)) {
      if (name.toLowerCase() !== 'sunset') continue;
      const header = resolver.resolve({
        uri: response.uri,
        pointer: joinPointer(response.pointer, 'headers', name),
        value: rawHeader,
      });
      const schema = isObjectLike(header.value) && isObjectLike(header.value.schema) ? header.value.schema : undefined;
      if (schema === undefined) continue;
      const fixed =
        schema.const ?? (Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : schema.default);
      if (fixed !== undefined) return fixed;
    }
  }
  return undefined;
}
