import { formatDays } from '../lifecycle/durations.ts';
import { minimumNoticeMs } from '../lifecycle/schedule-rules.ts';
import { DAY_MS, parseImfFixdate, parseIsoInstant } from '../time/index.ts';
import { emit, type DiffContext } from './diff-context.ts';
import { toDocumentSet } from './document-set.ts';
import type { DocNode } from './json-pointer.ts';
import { listOperations, type OperationEntry } from './openapi-document.ts';
import { createRefResolver, type RefResolver } from './ref-resolver.ts';
import type { RuleId } from './rules.ts';
import { child, isObjectLike, nodeEntries } from './schema-model.ts';

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
function parseSunset(value: unknown, source: string): SunsetPromise | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const at = parseIsoInstant(text) ?? parseImfFixdate(text);
  return at === undefined ? undefined : { at, text, source };
}

function sunsetHeaderValue(resolver: RefResolver, operation: DocNode): unknown {
  for (const site of sunsetHeaders(resolver, operation)) {
    const header = resolver.resolve(site);
    const schema = isObjectLike(header.value) && isObjectLike(header.value.schema) ? header.value.schema : undefined;
    if (schema === undefined) continue;
    const fixed =
      schema.const ?? (Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : schema.default);
    if (fixed !== undefined) return fixed;
  }
  return undefined;
}

/** The `Sunset` headers an operation's responses document, where they name them, one response at a time. */
export function* sunsetHeaders(resolver: RefResolver, operation: DocNode): Generator<DocNode> {
  for (const [, site] of nodeEntries(child(operation, 'responses'))) {
    const response = resolver.resolve(site);
    for (const [name, header] of nodeEntries(child(response, 'headers')))
      if (name.toLowerCase() === 'sunset') yield header;
  }
}

/** The elements below an operation that carry their own `deprecated` and `x-sunset`. */
export type ElementKind = 'request-parameter' | 'request-property' | 'response-property';

/** How a removed element is judged: the rule and the message's ending (which names the date). */
export interface ElementRemoval {
  id: RuleId;
  /** Appended to "<element> was removed". */
  tail: string;
}

/**
 * Judge the removal of a parameter or property by what the base promised its clients, as oasdiff
 * does for parameters (`request-parameter-removed-before-sunset`) and as operations are judged
 * here: only a `deprecated: true` element is judged by its own `x-sunset`; an undeprecated one is
 * a plain removal, whatever date it carries, because nothing announced its end.
 */
export function judgeRemoval(ctx: DiffContext, kind: ElementKind, element: unknown): ElementRemoval {
  const value = isObjectLike(element) ? element : {};
  if (value.deprecated !== true) return { id: `${kind}-removed`, tail: '' };
  const sunset = parseSunset(value['x-sunset'], 'x-sunset');
  if (sunset === undefined) {
    // An unparseable date promises nothing, as for operations (oasdiff reports a parse error).
    return {
      id: `${kind}-removed-after-deprecation`,
      tail: ' after being deprecated; the deprecation promised no date (no x-sunset), so clients may still rely on it',
    };
  }
  // Without a clock no date counts as passed: the safe reading is that the promise still holds.
  if (ctx.now === undefined || ctx.now < sunset.at) {
    return {
      id: `${kind}-removed-before-sunset`,
      tail: ` before its sunset date ${sunset.text}; clients were promised it until then`,
    };
  }
  return { id: `${kind}-removed-after-sunset`, tail: ` after its sunset date ${sunset.text}, as announced` };
}

/**
 * A newly deprecated element whose `x-sunset` is closer than the audience's minimum notice
 * (public 180 days, enterprise 360) gives its clients less time than promised: breaking. Only
 * judged with a clock, since "closer" needs a now.
 */
export function checkSunsetNotice(
  ctx: DiffContext,
  args: { kind: ElementKind; element: unknown; at: DocNode; what: string },
): void {
  if (ctx.now === undefined || !isObjectLike(args.element)) return;
  const sunset = parseSunset(args.element['x-sunset'], 'x-sunset');
  if (sunset === undefined) return;
  const required = minimumNoticeMs(ctx.audience);
  const left = sunset.at - ctx.now;
  if (left >= required) return;
  const away = left <= 0 ? 'already passed' : `${formatDays(Math.ceil(left / DAY_MS) * DAY_MS)} days away`;
  emit(ctx, `${args.kind}-sunset-too-soon`, {
    at: args.at,
    direction: args.kind === 'response-property' ? 'response' : 'request',
    newValue: sunset.text,
    message:
      `${args.what} was deprecated with sunset date ${sunset.text} (${away}); ` +
      `${ctx.audience} APIs owe at least ${formatDays(required)} days of notice.`,
  });
}

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
