import { diffOpenApi, operationsReached } from '../../../core/compat/index.ts';
import { toOpenApiDocument, type VersionBundle } from '../../../core/versions/index.ts';
import type { DashboardOptions } from './options.ts';
import { toClientWords } from './client-words.ts';

/** A breaking change towards the replacement, as a client reads it. */
export interface ClientBreakingChange {
  /** The endpoints this client calls that the change reaches (`GET /api/users`). */
  endpoints: string[];
  /** What changes, in plain words ({@link toClientWords}). */
  text: string;
}

/**
 * The breaking changes from a version to its replacement that reach an endpoint this client
 * calls, diffed from the two versions' documents as the migration guide is, and put in words.
 */
export function breakingForClient(
  options: DashboardOptions,
  called: { version: string; endpoints: string[] },
): ClientBreakingChange[] {
  const replacement = options.runtime.document().versions.find((v) => v.name === called.version)?.replacement;
  const old = options.bundle.get(called.version);
  const target = replacement ? options.bundle.get(replacement) : undefined;
  if (!old || !target) return [];
  // One base path for both, so the diff compares operations, not version prefixes.
  const doc = (version: NonNullable<ReturnType<VersionBundle['get']>>) =>
    toOpenApiDocument({ version, title: 'API', basePath: options.prefix });
  const { changes } = diffOpenApi({ base: doc(old), revision: doc(target), clock: { now: () => options.clock.now() } });
  const mine = new Set(called.endpoints.map((e) => e.replace(' ', ` ${options.prefix}`)));
  return changes
    .filter((c) => c.level === 'breaking')
    .flatMap((c) => {
      const reached = operationsReached(c).filter((o) => mine.has(o));
      return reached.length === 0 ? [] : [{ endpoints: reached, text: toClientWords(c, target.name) }];
    });
}
