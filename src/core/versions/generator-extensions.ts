import type { LifecycleVerdict } from '../lifecycle/lifecycle-verdict.ts';
import { formatIsoDate, formatIsoInstant } from '../time/index.ts';

/** What is known of one deprecation (an operation, a query parameter or a property) when its document is built. */
export interface DeprecationFacts {
  /** When it was deprecated (epoch milliseconds), when known. */
  deprecatedAt?: number;
  /** Its sunset (epoch milliseconds): after it, requests that use it are refused. */
  sunsetAt: number;
  /** What replaces it within the same document: an `operationId`, a property's or a parameter's name. */
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
 * The members a served document sets on a deprecated operation, parameter or property: `deprecated`,
 * `x-sunset`, and the SDK generators' extensions, so generated code carries the sunset and the
 * replacement. Speakeasy reads its `replacement` as an operationId, so it is set only for one in
 * this document; Fern prints `@deprecated` from the string form of `x-fern-availability`.
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
 * An operation's deprecation, from the lifecycle's verdict; the successor is named in the message
 * only, since its operation lives in another version's document.
 */
export function verdictDeprecation(
  verdict: Pick<LifecycleVerdict, 'deprecated' | 'sunsetAt' | 'deprecatedAt' | 'migrationUrl' | 'replacement'>,
): DeprecationFacts | undefined {
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
