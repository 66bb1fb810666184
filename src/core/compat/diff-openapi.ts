import type { Clock } from '../clock/index.ts';
import type { Audience } from '../lifecycle/schedule.ts';
import { diffRequestBody } from './diff-bodies.ts';
import { diffCallbacks, diffWebhooks } from './diff-callbacks.ts';
import { createDiffContext, emit, type DiffContext } from './diff-context.ts';
import { diffParameters } from './diff-parameters.ts';
import { diffResponses } from './diff-responses.ts';
import { diffSecurity, diffSecuritySchemes } from './diff-security.ts';
import { foldStatusCodes } from './fold-status-codes.ts';
import { perOperation } from './per-operation.ts';
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
  const now = options.clock?.now();
  const ctx = createDiffContext({ base, revision, now, audience: options.audience });
  const oldOps = listOperations(ctx.old);
  const newOps = new Map(listOperations(ctx.new).map((op) => [op.key, op]));
  const oldKeys = new Set(oldOps.map((op) => op.key));
  const livePaths = new Set([...newOps.values()].map((op) => op.key.slice(op.key.indexOf(' ') + 1)));
  for (const op of oldOps) {
    const match = newOps.get(op.key);
    ctx.via = `${op.method} ${match?.path ?? op.path}`;
    if (match === undefined)
      reportRemoved(ctx, { op, now, pathGone: !livePaths.has(op.key.slice(op.key.indexOf(' ') + 1)) });
    else diffOperation(ctx, { old: op, new: match });
  }
  ctx.via = undefined;
  diffWebhooks(ctx);
  diffSecuritySchemes(ctx);
  for (const [key, op] of newOps) {
    if (!oldKeys.has(key))
      emit(ctx, 'endpoint-added', { at: op.operation, side: 'new', message: `${op.method} ${op.path} was added.` });
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
function reportRemoved(
  ctx: DiffContext,
  args: { op: OperationEntry; now: number | undefined; pathGone: boolean },
): void {
  const { op, now } = args;
  const deprecated = isObjectLike(op.operation.value) && op.operation.value.deprecated === true;
  const sunset = sunsetOf(ctx.old.resolver, op);
  const what = `${op.method} ${op.path}${args.pathGone ? ' (with its whole path)' : ''} was removed`;
  const base = { at: op.operation, side: 'old' as const };
  if (sunset !== undefined && (now === undefined || now < sunset.at)) {
    emit(ctx, 'endpoint-removed-before-sunset', {
      ...base,
      oldValue: sunset.text,
      message: `${what} before its sunset date ${sunset.text} (${sunset.source}); clients were promised it until then.`,
    });
  } else if (sunset !== undefined) {
    emit(ctx, 'endpoint-removed-after-deprecation', {
      ...base,
      oldValue: sunset.text,
      message: `${what} after its sunset date ${sunset.text} (${sunset.source}).`,
    });
  } else {
    emit(ctx, deprecated ? 'endpoint-removed-after-deprecation' : 'endpoint-removed', {
      ...base,
      message: `${what}${deprecated ? ' after being deprecated' : ''}.`,
    });
  }
}

function diffOperation(ctx: DiffContext, ops: { old: OperationEntry; new: OperationEntry }): void {
  const o = ops.old.operation.value as Record<string, unknown>;
  const n = ops.new.operation.value as Record<string, unknown>;
  const label = `${ops.new.method} ${ops.new.path}`;
  if ((o.deprecated === true) !== (n.deprecated === true)) {
    emit(ctx, n.deprecated === true ? 'endpoint-deprecated' : 'endpoint-reactivated', {
      at: ops.new.operation,
      side: 'new',
      oldValue: o.deprecated === true,
      newValue: n.deprecated === true,
      message: `${label} ${n.deprecated === true ? 'was deprecated' : 'is no longer deprecated'}.`,
    });
  }
  if (typeof o.operationId === 'string' && typeof n.operationId === 'string' && o.operationId !== n.operationId) {
    emit(ctx, 'operation-id-changed', {
      at: ops.new.operation,
      side: 'new',
      oldValue: o.operationId,
      newValue: n.operationId,
      message: `The operationId of ${label} changed from ${o.operationId} to ${n.operationId}.`,
    });
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
