import type { Instruction } from './instructions.ts';
import { valueAt } from './schema-pointer.ts';
import type { RequestMigration, ResponseMigration } from './types.ts';

/** A change between two adjacent versions: what it does to schemas and how bodies migrate. */
export interface VersionChange {
  /** One or more sentences for humans; they appear in changelogs and migration guides. */
  description: string;
  instructions: Instruction[];
  /**
   * Request migrations up (older body → newer body), keyed by component schema name. Each gets the
   * body as the older version has it; the fields the change removed are dropped after it.
   */
  requests?: Record<string, RequestMigration>;
  /**
   * Response migrations down (newer body → older body), keyed by component schema name. Each gets
   * the body as the newer version has it; the fields the change added are dropped after it.
   */
  responses?: Record<string, ResponseMigration>;
}

/**
 * Declare a version change. What the instructions imply (dropping the fields the other version
 * lacks, mapping enum values) is applied after the migrations; `responses` and `requests` set what
 * data alone cannot say, such as a renamed field's value under its other name.
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
  const fromPointer = Object.fromEntries(
    change.instructions.flatMap((step) =>
      step.op === 'schema-replaced' && step.previousFrom !== undefined && !change.responses?.[step.schema]
        ? [[step.schema, pointerMigration(step.previousFrom)]]
        : [],
    ),
  );
  if (Object.keys(fromPointer).length === 0) return Object.freeze({ ...change });
  return Object.freeze({ ...change, responses: { ...change.responses, ...fromPointer } });
}

/**
 * The older body found at `pointer` in the newer one (RFC 6901); a body without it is passed on
 * unchanged (a problem body, or one already in the older shape).
 */
function pointerMigration(pointer: string): ResponseMigration {
  return (body) => {
    const at = valueAt(body, pointer);
    return at.found ? at.value : body;
  };
}
