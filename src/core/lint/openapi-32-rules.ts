import { declaredParameters } from '../compat/diff-parameters.ts';
import { FIXED_METHODS } from '../compat/diff-context.ts';
import { joinPointer } from '../compat/json-pointer.ts';
import { isObjectLike } from '../compat/schema-model.ts';
import type { LintContext, LintFinding } from './lint-context.ts';

/**
 * OpenAPI 3.2: `additionalOperations` "MUST NOT contain any entry for the methods that can be
 * defined by other fixed fields". Such an entry is no operation of its own for the diff, so a
 * document that relies on it documents an operation nobody compares.
 */
export function checkAdditionalOperations(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  const paths = isObjectLike(ctx.doc.paths) ? ctx.doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    const item = ctx.resolver.resolve({ uri: ctx.set.root, pointer: joinPointer('/paths', path), value: raw });
    const extra = isObjectLike(item.value) ? item.value.additionalOperations : undefined;
    if (!isObjectLike(extra)) continue;
    for (const method of Object.keys(extra)) {
      if (!FIXED_METHODS.has(method.toUpperCase())) continue;
      out.push({
        rule: 'additional-operation-fixed-method',
        path,
        method: method.toUpperCase(),
        pointer: joinPointer(item.pointer, 'additionalOperations', method),
        message: `additionalOperations names ${method}, a method with a fixed field.`,
        suggestion: `Move it to the path item's \`${method.toLowerCase()}\` field.`,
      });
    }
  }
  return out;
}

/**
 * OpenAPI 3.2: an `in: querystring` parameter "MUST NOT appear more than once, and MUST NOT appear
 * in the same operation (or in the operation's path-item) as any `in: query` parameters".
 */
export function checkQuerystringParameters(ctx: LintContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const op of ctx.operations) {
    const params = declaredParameters(ctx.resolver, op);
    const whole = params.filter((p) => p.in === 'querystring');
    if (whole.length === 0) continue;
    const query = params.filter((p) => p.in === 'query').map((p) => p.name);
    if (whole.length < 2 && query.length === 0) continue;
    out.push({
      rule: 'querystring-parameter-conflict',
      path: op.path,
      method: op.method,
      pointer: op.operation.pointer,
      message:
        whole.length > 1
          ? `${whole.length} in: querystring parameters (${whole.map((p) => p.name).join(', ')}); the query string is one value.`
          : `An in: querystring parameter beside in: query parameters (${query.join(', ')}).`,
      suggestion:
        whole.length > 1
          ? 'Keep one querystring parameter whose content schema holds every member.'
          : 'Describe the query members in the querystring parameter’s schema, or use only in: query parameters.',
    });
  }
  return out;
}
