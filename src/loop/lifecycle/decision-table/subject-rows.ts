import { deprecationHeaders, elementVerdict } from '../../../core/lifecycle/index.ts';
import type { ElementDeprecation, LifecycleVerdict } from '../../../core/lifecycle/index.ts';
import { sampleSegments, type ClientRow, type RuleSegment, type Sample } from '../../../core/rulebook/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import type { VerdictKey } from '../runtime-verdict.ts';
import { lowerCased, type ProblemRegistry } from './problem-registry.ts';

export interface RowContext {
  runtime: LifecycleRuntime;
  registry: ProblemRegistry;
  now: number;
}

function verdictSample(ctx: RowContext, verdict: LifecycleVerdict, until: number): Sample {
  const headers = lowerCased(verdict.headers);
  return verdict.removed
    ? { outcome: 'refuse', headers, problem: ctx.registry.keyOf(verdict.removed), until }
    : { outcome: 'allow', headers, until };
}

/** The segments of an operation (or, with `/`, the version as a whole), for everyone or one client. */
export function subjectSegments(ctx: RowContext, key: VerdictKey, clientId?: string): RuleSegment[] {
  return sampleSegments((t) => {
    const { verdict, until } = ctx.runtime.verdictAt(key, t, clientId);
    return verdictSample(ctx, verdict, until);
  }, ctx.now);
}

/** The segments of a request that uses one deprecated element: the operation's answer, with the element's headers. */
export function elementSegments(
  ctx: RowContext,
  o: { key: VerdictKey; element: ElementDeprecation; clientId?: string; sunsetAt?: number },
): RuleSegment[] {
  const { runtime } = ctx;
  // Past the public sunset, a client with extended access is judged with its own date as the sunset.
  const own = o.sunsetAt;
  const at = (t: number) =>
    own === undefined || t <= o.element.sunsetAt ? o.element : { ...o.element, sunsetAt: own };
  const guideOf = (d: ElementDeprecation) => d.migrationUrl ?? runtime.migrationUrl(d.version);
  return sampleSegments((t) => {
    const { verdict, until } = runtime.verdictAt(o.key, t, o.clientId);
    if (verdict.removed) return verdictSample(ctx, verdict, until);
    const e = at(t);
    const current = lowerCased(verdict.headers);
    const clock = { now: () => t };
    const answer = elementVerdict({
      used: [e],
      clock,
      style: runtime.headerStyle,
      guideOf,
      current,
    });
    if ('removed' in answer)
      return { outcome: 'refuse', headers: current, problem: ctx.registry.keyOf(answer.removed), until: Infinity };
    const headers = { ...current, ...answer.headers };
    // The manifest after the elements' own links, as the plugin's element step sends it.
    if (headers.link && !headers.link.includes(runtime.manifestLink))
      headers.link = `${headers.link}, ${runtime.manifestLink}`;
    const schedule = { version: e.version, deprecatedAt: e.deprecatedAt, sunsetAt: e.sunsetAt };
    const next = deprecationHeaders({ schedule, clock }).changesAt ?? e.sunsetAt + 1;
    return { outcome: 'allow', headers, until: Math.min(until, next > t ? next : e.sunsetAt + 1) };
  }, ctx.now);
}

/** A client's own row when its segments differ from everyone's; `undefined` otherwise. */
export function clientRow(shared: RuleSegment[], own: RuleSegment[], until: number): ClientRow | undefined {
  return JSON.stringify(shared) === JSON.stringify(own) ? undefined : { until, segments: own };
}
