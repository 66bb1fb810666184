import { echo, ErrorCode, VersionaryError, type FieldError } from '../../core/errors/index.ts';
import type { ApiVersion } from '../../core/versions/index.ts';
import { fromFrameworkError } from '../../http/fastify-errors.ts';
import { createRequestValidatorCompiler } from '../../http/request-validator.ts';
import { toRouteSchema } from '../../http/route-schemas.ts';
import { createMemberWalk } from './declared-members.ts';

/** Problems listed at most, as the service's validator lists them. */
const listed = 20;

/**
 * The check of a derived version's request bodies in its own terms, before any migration: its
 * document's schema, then members it does not declare (a newer version's, where the upstream's
 * schema leaves members open, as FastAPI's do) and a `__proto__` anywhere; a failure is a 400.
 */
export function createOldRequestCheck(
  version: ApiVersion,
): (name: string, body: unknown) => VersionaryError | undefined {
  const compile = createRequestValidatorCompiler();
  const validators = new Map<string, ReturnType<typeof compile>>();
  const walk = createMemberWalk(version.schemas);
  // One schema for reads and writes: a member it marks readOnly is required of answers only.
  const writable = { ...version, schemas: withoutReadOnlyRequired(version.schemas) as ApiVersion['schemas'] };
  return (name, body) => {
    let validate = validators.get(name);
    if (!validate) {
      const schema = toRouteSchema({ version: writable, name });
      validate = compile({ schema, method: 'POST', url: '', httpPart: 'body' });
      validators.set(name, validate);
    }
    const result = validate(body);
    const errors = (validate as { errors?: unknown }).errors;
    if (result === false && Array.isArray(errors))
      return fromFrameworkError({ validation: errors, validationContext: 'body' });
    const problems: FieldError[] = [];
    const misfit = walk(name, body, ({ key, pointer }) => {
      if (problems.length < listed)
        problems.push({
          pointer: echo(`/body${pointer}`),
          detail: `unknown field "${echo(key)}" for this API version`,
        });
    });
    const poisoned = protoPointer(body);
    if (poisoned !== undefined && !problems.some((p) => p.pointer === poisoned))
      problems.unshift({ pointer: echo(poisoned), detail: 'a member named __proto__ is not accepted' });
    if (misfit !== undefined && problems.length === 0)
      problems.push({ pointer: echo(`/body${misfit === '/' ? '' : misfit}`), detail: 'matches none of its schemas' });
    if (problems.length === 0) return undefined;
    const first = problems[0]!;
    return new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The body is invalid: ${first.pointer} ${first.detail}.`,
      errors: problems.slice(0, listed),
    });
  };
}

/** Where the body has a member named `__proto__` (JSON.parse makes it an own member), as `/body/...`. */
function protoPointer(body: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[body, '/body']];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const key of Object.keys(value)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === '__proto__') return at;
      stack.push([(value as Record<string, unknown>)[key], at]);
    }
  }
  return undefined;
}

/**
 * The schemas with every `readOnly` member left out of `required` (OpenAPI: such a member is
 * required of responses only), at any depth; a client may still send one, as the document allows.
 */
function withoutReadOnlyRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReadOnlyRequired);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = withoutReadOnlyRequired(child);
  const properties = out.properties as Record<string, { readOnly?: unknown } | undefined> | undefined;
  if (Array.isArray(out.required) && properties && typeof properties === 'object')
    out.required = out.required.filter((name) => properties[name as string]?.readOnly !== true);
  return out;
}
