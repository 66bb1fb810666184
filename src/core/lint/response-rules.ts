import { nodeAt, type DocNode } from '../compat/json-pointer.ts';
import { joinPointer } from '../compat/index.ts';
import { collectFields } from '../compat/diff-object.ts';
import { sunsetHeaders } from '../compat/sunset.ts';
import { isObjectLike, resolveSchema } from '../compat/schema-model.ts';
import type { LintContext, LintFinding } from './lint-context.ts';

const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail'] as const;

/**
 * Errors use the RFC 9457 problem shape: `application/problem+json`, or a schema whose
 * properties (allOf included) contain type, title, status and detail.
 */
export function checkProblemDetails(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const op of ctx.operations) {
    const responses = isObjectLike(op.operation.value) ? op.operation.value.responses : undefined;
    if (!isObjectLike(responses)) continue;
    for (const [status, raw] of Object.entries(responses)) {
      if (!/^([45]|default$)/i.test(status)) continue;
      const pointer = joinPointer(op.operation.pointer, 'responses', status);
      const response = ctx.resolver.resolve({ uri: op.operation.uri, pointer, value: raw });
      if (isProblemResponse(ctx, response)) continue;
      out.push({
        rule: 'error-not-problem-details',
        path: op.path,
        method: op.method,
        pointer,
        message: `The ${status} response of ${op.method} ${op.path} does not use the problem details shape.`,
        suggestion: 'Document it as application/problem+json with type, title, status and detail (RFC 9457).',
      });
    }
  }
  return out;
}

function isProblemResponse(ctx: LintContext, response: DocNode): boolean {
  const content = isObjectLike(response.value) ? response.value.content : undefined;
  if (!isObjectLike(content)) return false;
  return Object.entries(content).some(([media, body]) => {
    if (/^application\/problem\+(json|xml)/i.test(media)) return true;
    if (!isObjectLike(body) || body.schema === undefined) return false;
    const schema = resolveSchema(ctx.resolver, nodeAt(response, body.schema, 'content', media, 'schema'));
    // Starting at 16 of compat's 32 levels: the lint reads 16 levels of `allOf` members.
    const { properties } = collectFields(ctx.resolver, schema, 16);
    return PROBLEM_FIELDS.every((f) => properties.has(f));
  });
}

/**
 * Timeline rule 2: a deprecated operation states its sunset date (`x-sunset`, or a documented
 * `Sunset` response header).
 */
export function checkDeprecatedSunset(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const op of ctx.operations) {
    const operation = op.operation.value;
    if (!isObjectLike(operation) || operation.deprecated !== true) continue;
    if (operation['x-sunset'] !== undefined || sunsetHeaders(ctx.resolver, op.operation).next().done !== true) continue;
    out.push({
      rule: 'deprecated-without-sunset',
      path: op.path,
      method: op.method,
      pointer: op.operation.pointer,
      message: `${op.method} ${op.path} is deprecated without a sunset date.`,
      suggestion: 'Add x-sunset: <ISO 8601 date> to the operation and document the Sunset response header.',
    });
  }
  return out;
}
