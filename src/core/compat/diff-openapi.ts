import type { Clock } from '../clock/index.ts';
import type { Audience } from '../lifecycle/schedule.ts';
import { diffRequestBody } from './diff-bodies.ts';
import { diffCallbacks, diffWebhooks } from './diff-callbacks.ts';
import { createDiffContext, emit, operationsReaching, type DiffContext } from './diff-context.ts';
import { diffParameters } from './diff-parameters.ts';
import { diffResponses } from './diff-responses.ts';
import { diffSecurity, diffSecuritySchemes } from './diff-security.ts';
import { toDocumentSet, type DocumentSet } from './document-set.ts';
import { listOperations, type OperationEntry } from './openapi-document.ts';
import { isObjectLike } from './schema-model.ts';
import { sunsetOf } from './sunset.ts';
import type { Change, ChangeSummary, DiffResult } from './types.ts';

/** Options for {@link diffOpenApi}. */
export interface DiffOpenApiOptions {
  /** The older description: a parsed document or a {@link DocumentSet} for multi-file specs. */
  base: unknown;
  /** The newer description, same forms as `base`. */
  revision: unknown;
  /**
   * The time the diff judges sunset dates against: an operation removed before the `x-sunset`
   * it promised is breaking, after it a risk. Without a clock no sunset counts as passed.
   */
  clock?: Clock;
  /**
   * Who the API serves: `public` (default) owes 180 days of notice before a sunset date,
   * `enterprise` 360. A property or parameter newly deprecated with a closer `x-sunset` breaks.
   */
  audience?: Audience;
}

/**
 * Classify every difference between two OpenAPI 3.0/3.1 descriptions as breaking, risk or
 * compatible: operations, security, webhooks and callbacks. A change is reported once per
 * operation it affects and place in it (a shared schema's change on every operation that reaches
 * it), and one rule repeated across an operation's responses once, listing the status codes.
 *
 * @example
 * ```ts
 * const { changes, summary } = diffOpenApi({ base: v1Doc, revision: v2Doc, clock: { now: () => Date.now() } });
 * if (summary.breaking > 0) console.log(changes.filter((c) => c.level === 'breaking'));
 * ```
 */
export function diffOpenApi(options: DiffOpenApiOptions): DiffResult {
  const base: DocumentSet = toDocumentSet(options.base);
  const revision: DocumentSet = toDocumentSet(options.revision);
  const ctx = createDiffContext({ base, revision, now: options.clock?.now(), audience: options.audience });
  const oldOps = listOperations(ctx.old);
  const newOps = new Map(listOperations(ctx.new).map((op) => [op.key, op]));
  const oldKeys = new Set(oldOps.map((op) => op.key));
  const livePaths = new Set([...newOps.values()].map((op) => op.key.slice(op.key.indexOf(' ') + 1)));
  for (const op of oldOps) {
    const match = newOps.get(op.key);
    ctx.via = `${op.method} ${match?.path ?? op.path}`;
    if (match === undefined)
      reportRemoved(ctx, { op, pathGone: !livePaths.has(op.key.slice(op.key.indexOf(' ') + 1)) });
    else diffOperation(ctx, { old: op, new: match });
  }
  ctx.via = undefined;
  diffWebhooks(ctx);
  diffSecuritySchemes(ctx);
  for (const [key, op] of newOps) {
    if (!oldKeys.has(key))
      emit(ctx, 'endpoint-added', { at: op.operation, message: `${op.method} ${op.path} was added.` });
  }
  const changes = foldStatusCodes(dedupe(perOperation(ctx)));
  return { changes, summary: summarize(changes) };
}

/**
 * Count changes by level.
 *
 * @example
 * ```ts
 * summarize(changes); // { breaking: 2, risk: 1, compatible: 9 }
 * ```
 */
export function summarize(changes: readonly Change[]): ChangeSummary {
  const summary: ChangeSummary = { breaking: 0, risk: 0, compatible: 0 };
  for (const c of changes) summary[c.level]++;
  return summary;
}

/**
 * A removal is judged by what clients were promised: a sunset date still ahead (or unknown
 * without a clock) makes it breaking, a passed one or a bare deprecation a risk.
 */
function reportRemoved(ctx: DiffContext, args: { op: OperationEntry; pathGone: boolean }): void {
  const { op } = args;
  const deprecated = isObjectLike(op.operation.value) && op.operation.value.deprecated === true;
  const sunset = sunsetOf(ctx.old.resolver, op);
  const what = `${op.method} ${op.path}${args.pathGone ? ' (with its whole path)' : ''} was removed`;
  const base = { at: op.operation, side: 'old' as const };
  if (sunset === undefined) {
    const id = deprecated ? 'endpoint-removed-after-deprecation' : 'endpoint-removed';
    emit(ctx, id, { ...base, message: `${what}${deprecated ? ' after being deprecated' : ''}.` });
    return;
  }
  // A date still ahead (or unknown without a clock) was a promise; a passed one was kept.
  const ahead = ctx.now === undefined || ctx.now < sunset.at;
  const date = `its sunset date ${sunset.text} (${sunset.source})`;
  emit(ctx, ahead ? 'endpoint-removed-before-sunset' : 'endpoint-removed-after-deprecation', {
    ...base,
    oldValue: sunset.text,
    message: ahead ? `${what} before ${date}; clients were promised it until then.` : `${what} after ${date}.`,
  });
}

function diffOperation(ctx: DiffContext, ops: { old: OperationEntry; new: OperationEntry }): void {
  const o = ops.old.operation.value as Record<string, unknown>;
  const n = ops.new.operation.value as Record<string, unknown>;
  const label = `${ops.new.method} ${ops.new.path}`;
  const at = ops.new.operation;
  const [was, now] = [o.deprecated === true, n.deprecated === true];
  if (was !== now) {
    const message = `${label} ${now ? 'was deprecated' : 'is no longer deprecated'}.`;
    emit(ctx, now ? 'endpoint-deprecated' : 'endpoint-reactivated', { at, oldValue: was, newValue: now, message });
  }
  if (typeof o.operationId === 'string' && typeof n.operationId === 'string' && o.operationId !== n.operationId) {
    const message = `The operationId of ${label} changed from ${o.operationId} to ${n.operationId}.`;
    emit(ctx, 'operation-id-changed', { at, oldValue: o.operationId, newValue: n.operationId, message });
  }
  diffParameters(ctx, ops);
  diffRequestBody(ctx, { old: ops.old.operation, new: ops.new.operation });
  diffResponses(ctx, { old: ops.old.operation, new: ops.new.operation });
  diffSecurity(ctx, ops);
  diffCallbacks(ctx, { old: ops.old.operation, new: ops.new.operation });
}

/** Two routes to one location (an inline schema swapped for a shared ref) may find the same change. */
function dedupe(changes: Change[]): Change[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    const key = `${c.id}|${c.location.document ?? ''}|${c.location.pointer}|${c.location.method ?? ''} ${c.location.path ?? ''}|${JSON.stringify(c.oldValue) ?? ''}|${JSON.stringify(c.newValue) ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// An HTTP method token (RFC 9110), as `additionalOperations` spells it, then the path.
const PATH_OPERATION = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/.*)$/;

/**
 * Changes as a client acts on them. A change found once inside a shared component schema names
 * every operation that reaches it (all of them, so a reader can act on each), and one reached
 * by a single operation is located at that operation. Two schemas that change alike at the same
 * place for the same operations (a list schema and its `?fields=` twin in one `anyOf`) are the
 * same change to those operations, so it counts once.
 */
function perOperation(ctx: DiffContext): Change[] {
  const cache = new Map<string, { ops: string[]; names: string }>();
  const out: Change[] = [];
  const seen = new Set<string>();
  for (const change of ctx.changes) {
    const owner = ctx.ownerOf.get(change);
    if (owner === undefined || change.location.method !== undefined) {
      out.push(change);
      continue;
    }
    let reach = cache.get(owner);
    if (reach === undefined) {
      const reaching = operationsReaching(ctx, owner).filter((op) => op.includes(' '));
      cache.set(owner, (reach = { ops: reaching, names: reaching.join(',') }));
    }
    const { ops } = reach;
    if (ops.length === 0) {
      out.push(change);
      continue;
    }
    // Within a schema the place is the pointer below the schema's name.
    const inSchema = change.location.pointer.replace(/^\/components\/schemas\/[^/]+/, '');
    const key = `${change.id}|${reach.names}|${change.location.document ?? ''}#${inSchema}|${JSON.stringify(change.oldValue)}|${JSON.stringify(change.newValue)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(located(change, ops));
  }
  return out;
}

function located(change: Change, ops: string[]): Change {
  const single = ops.length === 1 ? PATH_OPERATION.exec(ops[0] as string) : null;
  if (single !== null) {
    const { via: _via, operations: _ops, operationCount: _count, ...rest } = change.location;
    return { ...change, location: { ...rest, method: single[1] as string, path: single[2] as string } };
  }
  return { ...change, location: { ...change.location, operations: ops, operationCount: ops.length } };
}

const RESPONSE = /\/responses\/([^/]+)(?=\/|$)/;
const HEADER = /\/headers\/([^/]+)(?=\/|$)/;

/**
 * One rule repeated on one operation across its responses is one line that lists the status
 * codes (and, for header rules, the headers): a version that stops sending four deprecation
 * headers on five responses is one change to each operation, not twenty.
 */
function foldStatusCodes(changes: readonly Change[]): Change[] {
  const groups = new Map<string, { first: Change; codes: string[]; headers: string[] }>();
  const out: (Change | { first: Change; codes: string[]; headers: string[] })[] = [];
  for (const change of changes) {
    const code = RESPONSE.exec(change.location.pointer)?.[1];
    if (change.location.method === undefined || code === undefined) {
      out.push(change);
      continue;
    }
    const rest = change.location.pointer.replace(RESPONSE, '/responses/*');
    const header = change.id.includes('-header-') ? HEADER.exec(rest)?.[1] : undefined;
    const place = header === undefined ? rest : rest.replace(HEADER, '/headers/*');
    // A value that only repeats the code or the header name (`oldValue: '410'`) is not a difference.
    const values = [change.oldValue, change.newValue]
      .map((v) => (v === code || (header !== undefined && v === header) ? '*' : JSON.stringify(v)))
      .join('|');
    const key = `${change.id}|${change.location.method} ${change.location.path ?? ''}|${change.location.document ?? ''}#${place}|${values}`;
    let group = groups.get(key);
    if (group === undefined) {
      groups.set(key, (group = { first: change, codes: [], headers: [] }));
      out.push(group);
    }
    if (!group.codes.includes(code)) group.codes.push(code);
    if (header !== undefined && !group.headers.includes(header)) group.headers.push(header);
  }
  return out.map((entry) => ('id' in entry ? entry : folded(entry)));
}

function folded(group: { first: Change; codes: string[]; headers: string[] }): Change {
  const { first, codes, headers } = group;
  if (codes.length === 1 && headers.length <= 1) return first;
  const code = RESPONSE.exec(first.location.pointer)?.[1] ?? '';
  let message = first.message;
  if (codes.length > 1) {
    message = message
      .replace(`The ${code} response no longer has`, `The ${code} response no longer have`)
      .replace(`The ${code} response is`, `The ${code} response are`)
      .replace(`A ${code} response may`, `The ${code} response may`)
      .replace(`The ${code} response`, `The ${codes.join(', ')} responses`);
  }
  const header = headers[0];
  if (header !== undefined && headers.length > 1)
    message = message.replace(`the ${header} header`, `the ${headers.join(', ')} headers`);
  if (message === first.message) message = `${message} (responses ${codes.join(', ')})`;
  // Values that named one code or header now name them all.
  const listed = (v: unknown) =>
    v === code && codes.length > 1 ? codes : v === headers[0] && headers.length > 1 ? headers : v;
  const out: Change = {
    ...first,
    location: { ...first.location, statusCodes: codes, ...(headers.length > 1 ? { headers } : {}) },
    message,
  };
  if (first.oldValue !== undefined) out.oldValue = listed(first.oldValue);
  if (first.newValue !== undefined) out.newValue = listed(first.newValue);
  return out;
}
