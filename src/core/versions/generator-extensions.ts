import { formatIsoDate, formatIsoInstant } from '../time/index.ts';

/** What is known of one deprecation (an operation, a query parameter or a property) when its document is built. */
export interface DeprecationFacts {
  /** When it was deprecated (epoch milliseconds), when known. */
  deprecatedAt?: number;
  /** Its sunset (epoch milliseconds): after it, requests that use it are refused. */
  sunsetAt: number;
  /**
   * What replaces it within the same document: an operation's `operationId`, a property's or a
   * query parameter's name. Named in the message and, for Speakeasy, in
   * `x-speakeasy-deprecation-replacement`.
   */
  replacement?: string;
  /**
   * What replaces it elsewhere, named only in the message: the same operation in the successor
   * version (`GET /api/v2/users`), which a generator reading this document cannot link to.
   */
  successor?: string;
  /** The migration guide's URL. */
  guide?: string;
}

/**
 * The members a served document sets on a deprecated operation, parameter or property: the
 * standard `deprecated: true`, our `x-sunset`, and the SDK generators' own extensions, so the code
 * they generate carries the sunset and the replacement:
 *
 * - `x-speakeasy-deprecation-message` (string) and `x-speakeasy-deprecation-replacement` (string,
 *   only with a `replacement` in this document: Speakeasy reads it as the operationId of the method
 *   to use instead);
 * - `x-stainless-deprecation-message` (string);
 * - `x-fern-availability: deprecated` (the string form; Fern prints `@deprecated` from it).
 *
 * Both messages are the same sentence. Dates are calendar dates when they fall at midnight UTC.
 */
export function deprecationMembers(facts: DeprecationFacts): Record<string, unknown> {
  const message = deprecationMessage(facts);
  return {
    deprecated: true,
    'x-sunset': formatIsoInstant(facts.sunsetAt),
    'x-speakeasy-deprecation-message': message,
    ...(facts.replacement === undefined ? {} : { 'x-speakeasy-deprecation-replacement': facts.replacement }),
    'x-stainless-deprecation-message': message,
    'x-fern-availability': 'deprecated',
  };
}

function deprecationMessage(facts: DeprecationFacts): string {
  const since = facts.deprecatedAt === undefined ? 'Deprecated' : `Deprecated since ${day(facts.deprecatedAt)}`;
  const instead = facts.replacement ?? facts.successor;
  return [
    `${since}; sunset ${day(facts.sunsetAt)} (removed after).`,
    ...(instead === undefined ? [] : [`Use \`${instead}\` instead.`]),
    ...(facts.guide === undefined ? [] : [`Guide: ${facts.guide}`]),
  ].join(' ');
}

/** A calendar date when the instant is midnight UTC (as dates in configs are), else the full instant. */
function day(ms: number): string {
  const instant = formatIsoInstant(ms);
  return instant.endsWith('T00:00:00.000Z') ? formatIsoDate(ms) : instant;
}

/**
 * An operation's deprecation, from the lifecycle's verdict on it: undefined unless it is
 * deprecated with a sunset. The successor version is named in the message only: the operation
 * that replaces it lives in that version's document, not in this one.
 */
export function verdictDeprecation(verdict: {
  deprecated: boolean;
  sunsetAt?: number | undefined;
  deprecatedAt?: number | undefined;
  migrationUrl?: string | undefined;
  replacement?: string | undefined;
}): DeprecationFacts | undefined {
  if (!verdict.deprecated || verdict.sunsetAt === undefined) return undefined;
  return {
    sunsetAt: verdict.sunsetAt,
    ...(verdict.deprecatedAt === undefined ? {} : { deprecatedAt: verdict.deprecatedAt }),
    ...(verdict.replacement === undefined ? {} : { successor: verdict.replacement }),
    ...(verdict.migrationUrl === undefined ? {} : { guide: verdict.migrationUrl }),
  };
}

/**
 * What a deprecated operation gets: {@link deprecationMembers}, and the message appended to its
 * description (once: a document marked twice, as a gateway forwarding a served one does, reads it once).
 */
export function deprecatedOperation(description: unknown, facts: DeprecationFacts): Record<string, unknown> {
  const members = deprecationMembers(facts);
  const message = String(members['x-stainless-deprecation-message']);
  const text =
    typeof description !== 'string' || description === ''
      ? message
      : description.includes(message)
        ? description
        : `${description} ${message}`;
  return { ...members, description: text };
}
