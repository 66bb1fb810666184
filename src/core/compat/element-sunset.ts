import { DAY_MS } from '../time/index.ts';
import { formatDays } from '../lifecycle/durations.ts';
import { minimumNoticeMs } from '../lifecycle/schedule-rules.ts';
import { emit, type DiffContext, type DocNode } from './diff-context.ts';
import type { RuleId } from './rules.ts';
import { isObjectLike } from './schema-model.ts';
import { parseSunset } from './sunset.ts';

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
  return {
    id: `${kind}-removed-after-sunset`,
    tail: ` after its sunset date ${sunset.text}, as announced`,
  };
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
    side: 'new',
    direction: args.kind === 'response-property' ? 'response' : 'request',
    newValue: sunset.text,
    message:
      `${args.what} was deprecated with sunset date ${sunset.text} (${away}); ` +
      `${ctx.audience} APIs owe at least ${formatDays(required)} days of notice.`,
  });
}
