import type { ChangeSummary } from '../compat/index.ts';

/** One line of a migration guide. */
export interface GuideEntry {
  /** `POST /users`, or every operation a shared schema's change reaches, comma-separated. */
  endpoint: string;
  /** The operations the change reaches (`GET /users`); empty when none does (a webhook, a lone schema). */
  operations: string[];
  /** What clients saw before; empty for additive changes. */
  oldBehaviour: string;
  newBehaviour: string;
  /** Rule id of the underlying change. */
  rule: string;
  /** A changed type's compact JSON Schema before and after, when the guide was given the documents. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** Concrete dates, ISO 8601 UTC. */
interface GuideTimeline {
  deprecatedAt: string;
  sunsetAt: string;
  removedAt: string;
}

/** A migration guide from one version to the next, ready for any renderer. */
export interface MigrationGuide {
  title: string;
  from: string;
  to: string;
  summary: ChangeSummary;
  breaking: GuideEntry[];
  /** Changes compatible by the rules that may still surprise some clients. */
  risks: GuideEntry[];
  additive: GuideEntry[];
  timeline: GuideTimeline;
  /** Prose from the version change declarations, in order. */
  notes: string[];
  /**
   * Fields and query parameters deprecated within the old version: present only when it has some,
   * so a guide without any reads (and serializes) as before.
   */
  deprecated?: GuideEntry[];
  /**
   * Endpoints deprecated within the old version, each with what to call instead: present only when
   * it has some, so a guide without any reads (and serializes) as before.
   */
  deprecatedEndpoints?: GuideEntry[];
}
