import { isObjectLike } from '../compat/schema-model.ts';
import { createLintContext, type LintContext, type LintFinding } from './lint-context.ts';
import { checkCollectionNames, checkIdentifiersInQuery, checkVersionedPaths } from './naming-rules.ts';
import { checkAdditionalOperations, checkQuerystringParameters } from './openapi-32-rules.ts';
import { checkDeprecatedSunset, checkProblemDetails } from './response-rules.ts';

type Check = (ctx: LintContext) => LintFinding[];

/**
 * Conformance rules of `versionary lint`, each from the REST conventions spec. Ids are stable;
 * `docs/compatibility.md` lists them and a test keeps the two in step.
 * @internal exported for the tests
 */
export const lintRules = {
  'collection-not-plural': {
    description: 'A collection segment is not a plural noun (singular, verb form, or mixed such as getUsers).',
    check: checkCollectionNames,
  },
  'identifier-in-query': {
    description: 'A resource identifier is passed as a query parameter (?id=, ?userId=) instead of a path segment.',
    check: checkIdentifiersInQuery,
  },
  'unversioned-path': {
    description:
      'A path is not under /api/v<n>/ (or any v<n> segment) and no server URL or media type carries the version.',
    check: checkVersionedPaths,
  },
  'error-not-problem-details': {
    description:
      'A 4xx/5xx/default response does not use the RFC 9457 problem shape (application/problem+json, or a schema with type, title, status, detail).',
    check: checkProblemDetails,
  },
  'deprecated-without-sunset': {
    description:
      'A deprecated operation has no sunset date: neither an x-sunset extension nor a documented Sunset response header.',
    check: checkDeprecatedSunset,
  },
  'additional-operation-fixed-method': {
    description:
      'An OpenAPI 3.2 additionalOperations entry names a method that has a fixed field (get, post, query…), which the specification forbids.',
    check: checkAdditionalOperations,
  },
  'querystring-parameter-conflict': {
    description:
      'An operation has more than one in: querystring parameter, or one beside in: query parameters (OpenAPI 3.2 forbids both).',
    check: checkQuerystringParameters,
  },
} as const satisfies Record<string, { description: string; check: Check }>;

type LintRuleId = keyof typeof lintRules;

/** Options for {@link lintOpenApi}. */
export interface LintOptions {
  /** Extra path segments that are not collections (namespaces such as `checkout`). */
  allowSegments?: readonly string[];
  skip?: readonly LintRuleId[];
}

/**
 * Check an OpenAPI description (a parsed document or a document set) against the REST
 * conventions: plural collections, identifiers in paths, versioned paths, problem details for
 * errors, sunset dates for deprecated operations.
 *
 * @example
 * ```ts
 * const findings = lintOpenApi(doc);
 * for (const f of findings) console.log(`${f.rule} ${f.path}: ${f.suggestion}`);
 * ```
 */
export function lintOpenApi(input: unknown, options: LintOptions = {}): LintFinding[] {
  const ctx = createLintContext(input, options.allowSegments);
  const skip = new Set(options.skip ?? []);
  const out: LintFinding[] = [];
  for (const [rule, { check }] of Object.entries(lintRules) as [LintRuleId, { check: Check }][]) {
    if (!skip.has(rule)) out.push(...check(ctx).filter((finding) => !skippedInDocument(ctx, finding)));
  }
  return out;
}

/**
 * A deviation the document states itself: an operation with `x-lint-skip: ['identifier-in-query']`
 * skips that rule's findings about it; a finding about a whole path (a segment's name) is skipped
 * when every operation of the path lists the rule.
 */
function skippedInDocument(ctx: LintContext, finding: LintFinding): boolean {
  const ops = ctx.operations.filter(
    (op) =>
      op.path === finding.path &&
      (finding.method === undefined || op.method === finding.method || op.method.toUpperCase() === finding.method),
  );
  return (
    ops.length > 0 &&
    ops.every((op) => {
      const skip = isObjectLike(op.operation.value) ? op.operation.value['x-lint-skip'] : undefined;
      return Array.isArray(skip) && skip.includes(finding.rule);
    })
  );
}

/** Plain-text lint report, one finding per two lines, and a count. */
export function formatFindingsText(findings: readonly LintFinding[]): string {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${f.rule}  ${f.method === undefined ? '' : `${f.method} `}${f.path}`);
    lines.push(`  ${f.message} Fix: ${f.suggestion}`);
  }
  lines.push(findings.length === 0 ? 'No findings.' : `${findings.length} finding${findings.length === 1 ? '' : 's'}.`);
  return `${lines.join('\n')}\n`;
}

/** JSON lint report: `{ count, findings }`. */
export function formatFindingsJson(findings: readonly LintFinding[]): string {
  return `${JSON.stringify({ count: findings.length, findings }, null, 2)}\n`;
}
