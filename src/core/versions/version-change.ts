import type { Instruction } from './instructions.ts';
import type { RequestMigration, ResponseMigration } from './types.ts';

/** A change between two adjacent versions: what it does to schemas and how bodies migrate. */
export interface VersionChange {
  /** One or more sentences for humans; they appear in changelogs and migration guides. */
  description: string;
  instructions: Instruction[];
  /** Request migrations up (older body → newer body), keyed by component schema name. */
  requests?: Record<string, RequestMigration>;
  /** Response migrations down (newer body → older body), keyed by component schema name. */
  responses?: Record<string, ResponseMigration>;
}

/**
 * Declare a version change. Field removals and enum mappings implied by the instructions are
 * applied automatically; `responses`/`requests` cover what data alone cannot say.
 *
 * @example
 * ```ts
 * export const addEmail = defineVersionChange({
 *   description: 'Users gain an optional `email`.',
 *   instructions: [fieldAdded('User', 'email')],
 * });
 * ```
 */
export function defineVersionChange(change: VersionChange): VersionChange {
  return Object.freeze({ ...change });
}
