import { isObjectLike } from '../compat/schema-model.ts';
import { createLintContext, type LintContext } from './lint-context.ts';
import { checkCollectionNames, checkIdentifiersInQuery } from './naming-rules.ts';
import { checkAdditionalOperations, checkQuerystringParameters } from './openapi-32-rules.ts';
import { checkDeprecatedSunset, checkProblemDetails } from './response-rules.ts';
import type { LintRuleId } from './rules.ts';
import type { LintFinding } from './types.ts';
import { checkVersionedPaths } from './versioning-rule.ts';

/** Options for {@link lintOpenApi}. */
export interface LintOptions {
  /** Extra path segments that are not collections (namespaces such as `checkout`). */
  allowSegments?: readonly string[];
  /** Rules to skip. */
  skip?: readonly LintRuleId[];
}

const checks: Record<LintRuleId, (ctx: LintContext) => LintFinding[]> = {
  'collection-not-plural': checkCollectionNames,
  'identifier-in-query': checkIdentifiersInQuery,
  'unversioned-path': checkVersionedPaths,
  'error-not-problem-details': checkProblemDetails,
  'deprecated-without-sunset': checkDeprecatedSunset,
  'additional-operation-fixed-method': checkAdditionalOperations,
  'querystring-parameter-conflict': checkQuerystringParameters,
};

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
  const ctx = createLintContext(
    input,
    options.allowSegments === undefined ? {} : { allowSegments: options.allowSegments },
  );
  const skip = new Set(options.skip ?? []);
  const out: LintFinding[] = [];
  for (const [rule, check] of Object.entries(checks) as [LintRuleId, (c: LintContext) => LintFinding[]][]) {
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
