import { diffOpenApi, operationsReached } from '../../../core/compat/index.ts';
import { toGuideEntry } from '../../../core/guide/index.ts';
import { toOpenApiDocument, type VersionBundle } from '../../../core/versions/index.ts';
import type { BreakingChange, BreaksOptions } from './breaks-options.ts';
import { toClientWords } from './client-words.ts';
import { createDiffCache } from './diff-cache.ts';

export interface ClientBreakingChange {
  /** The endpoints this client calls that the change reaches (`GET /api/users`). */
  endpoints: string[];
  text: string;
}

/** Every breaking change from `from` to `to`, reused from `options.diffs` when kept (the diff is the costly part). */
export function breakingChangesBetween(
  options: Pick<BreaksOptions, 'bundle' | 'clock' | 'prefix' | 'diffs'>,
  pair: { from: string; to: string },
): { value: BreakingChange[] | undefined; reused: boolean; ms: number } {
  // Without a kept cache, a fresh one: it computes, and times the computing.
  const diffs = options.diffs ?? createDiffCache({ clock: options.clock, generation: () => 0 });
  return diffs.get(pair, () => diffBreaking(options, pair));
}

export function reachingEndpoints(changes: readonly BreakingChange[], endpoints: readonly string[]): BreakingChange[] {
  const mine = new Set(endpoints);
  return changes.flatMap((c) => {
    const operations = c.operations.filter((o) => mine.has(o));
    return operations.length === 0 ? [] : [{ ...c, operations }];
  });
}

function diffBreaking(
  options: Pick<BreaksOptions, 'bundle' | 'clock' | 'prefix'>,
  pair: { from: string; to: string },
): BreakingChange[] | undefined {
  const old = options.bundle.get(pair.from);
  const target = options.bundle.get(pair.to);
  if (!old || !target) return undefined;
  if (old === target) return [];
  // One base path for both, so the diff compares operations, not version prefixes.
  const doc = (version: NonNullable<ReturnType<VersionBundle['get']>>) =>
    toOpenApiDocument({ version, title: 'API', basePath: options.prefix });
  const { changes } = diffOpenApi({ base: doc(old), revision: doc(target), clock: { now: () => options.clock.now() } });
  const unprefixed = (operation: string) => {
    const space = operation.indexOf(' ');
    const path = operation.slice(space + 1);
    return `${operation.slice(0, space)} ${path.startsWith(options.prefix) ? path.slice(options.prefix.length) || '/' : path}`;
  };
  return changes
    .filter((c) => c.level === 'breaking')
    .flatMap((c) => {
      const reached = [...new Set(operationsReached(c).map(unprefixed))];
      if (reached.length === 0) return [];
      const entry = toGuideEntry(c);
      return [
        {
          text: toClientWords(c, target.name),
          rule: c.id,
          direction: c.direction === 'request' ? 'request' : 'response',
          operations: reached,
          guide: { oldBehaviour: entry.oldBehaviour, newBehaviour: entry.newBehaviour },
        },
      ];
    });
}

/** The breaking changes to a version's replacement that reach an endpoint this client calls, in words. */
export function breakingForClient(
  options: BreaksOptions,
  called: { version: string; endpoints: string[] },
): ClientBreakingChange[] {
  const replacement = options.runtime.document().versions.find((v) => v.name === called.version)?.replacement;
  if (!replacement) return [];
  const all = breakingChangesBetween(options, { from: called.version, to: replacement }).value ?? [];
  const changes = reachingEndpoints(all, called.endpoints);
  return changes.map((c) => ({
    endpoints: c.operations.map((o) => o.replace(' ', ` ${options.prefix}`)),
    text: c.text,
  }));
}
