import type { Change } from '../compat/index.ts';
import { summarize } from '../compat/index.ts';
import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { toGuideEntry } from './behaviour.ts';
import {
  elementGuideEntries,
  endpointGuideEntries,
  guideInstant,
  type GuideElements,
  type GuideEndpoints,
} from './element-entries.ts';
import { addDays, assertIsoInstant } from '../time/index.ts';
import { shapesOf } from './schema-snippet.ts';
import type { GuideEntry, MigrationGuide } from './types.ts';

/** A month in lifecycle arithmetic, as the spec counts it. */
const MONTH_DAYS = 30;

/** Options for {@link createMigrationGuide}. */
export interface MigrationGuideOptions {
  from: string;
  to: string;
  /** Changes from `diffOpenApi` between the two versions' documents. */
  changes: readonly Change[];
  /** ISO 8601 date the old version is deprecated: the guide's "deprecated at once". */
  deprecatedAt: string;
  /** Explicit sunset date; default deprecatedAt + 6 months of 30 days. */
  sunsetAt?: string;
  /** Explicit removal date; default deprecatedAt + 12 months of 30 days, or the sunset when that is later. */
  removedAt?: string;
  /** Prose of the version change declarations, in order. */
  notes?: readonly string[];
  /**
   * The two documents the changes come from (parsed, or document sets): with them, a changed
   * type shows its compact JSON Schema before and after.
   */
  documents?: { base: unknown; revision: unknown };
  title?: string;
  /** Fields and query parameters deprecated within the old version, listed apart with what to send instead. */
  elements?: GuideElements;
  /** Endpoints deprecated within the old version, listed apart with what to call instead. */
  endpoints?: GuideEndpoints;
}

/**
 * Build a migration guide: breaking changes (endpoint, old and new behaviour), additive changes,
 * risks, a dated timeline and the declared prose. Pure: render it with `toMarkdown`, `toHtml`
 * or `toJson`.
 *
 * @example
 * ```ts
 * const guide = createMigrationGuide({ from: 'v1', to: 'v2', changes: diffOpenApi({ base, revision }).changes,
 *   deprecatedAt: '2026-01-01', notes: ['List responses are wrapped in { data, meta }.'] });
 * guide.timeline.sunsetAt; // '2026-06-30T00:00:00Z'
 * ```
 */
export function createMigrationGuide(options: MigrationGuideOptions): MigrationGuide {
  const deprecated = assertIsoInstant(options.deprecatedAt);
  const sunset =
    options.sunsetAt === undefined ? addDays(deprecated, 6 * MONTH_DAYS) : assertIsoInstant(options.sunsetAt);
  // A sunset beyond the default removal (a notice of 13 months, say) moves the removal with it.
  const removed =
    options.removedAt === undefined
      ? Math.max(addDays(deprecated, 12 * MONTH_DAYS), sunset)
      : assertIsoInstant(options.removedAt);
  if (sunset < deprecated || removed < sunset) {
    throw new VersionaryError({
      code: ErrorCode.InvalidSchedule,
      detail: 'The timeline must run deprecated <= sunset <= removed.',
    });
  }
  const entry = (change: Change): GuideEntry => {
    const shapes = options.documents === undefined ? undefined : shapesOf(change, options.documents);
    return shapes === undefined ? toGuideEntry(change) : { ...toGuideEntry(change), ...shapes };
  };
  const pick = (level: Change['level']) => options.changes.filter((c) => c.level === level).map(entry);
  const elements = options.elements ? elementGuideEntries(options.elements) : [];
  const endpoints = options.endpoints ? endpointGuideEntries(options.endpoints) : [];
  return {
    title: options.title ?? `Migrating from ${options.from} to ${options.to}`,
    from: options.from,
    to: options.to,
    summary: summarize(options.changes),
    breaking: pick('breaking'),
    risks: pick('risk'),
    additive: pick('compatible'),
    timeline: {
      deprecatedAt: guideInstant(deprecated),
      sunsetAt: guideInstant(sunset),
      removedAt: guideInstant(removed),
    },
    notes: [...(options.notes ?? [])],
    ...(elements.length > 0 ? { deprecated: elements } : {}),
    ...(endpoints.length > 0 ? { deprecatedEndpoints: endpoints } : {}),
  };
}
