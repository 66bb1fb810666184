import type { FastifyReply } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { MigrationContext, OperationSpec } from '../core/versions/index.ts';
import type { DerivedVersionRoute } from './forward-options.ts';
import { deeperThan, jsonDepthLimit } from './json-depth.ts';
import { internalError, logFailure, sendProblem } from './problem.ts';
import type { createResponseChecks } from './response-check.ts';

/**
 * `application/json` and every `+json` type (`application/hal+json`, `application/vnd.api+json`),
 * with or without parameters; not `application/problem+json`: a problem passes as it is.
 */
export const jsonMediaType = /^application\/(?!problem\+)(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i;

/**
 * A derived version's request body as it goes up: checked in its own terms, then migrated to the
 * root version; a 4xx problem (or a migration's 500) is sent here, and the answer is undefined.
 */
export function upBody(at: {
  reply: FastifyReply;
  route: DerivedVersionRoute;
  operation: OperationSpec;
  /** The operation's request body schema, in the derived version's document. */
  schema: string;
  body: Buffer;
  type: string;
  /** `Content-Encoding`: a body is checked and migrated as JSON text, so only `identity` is taken. */
  encoding: string;
  /** The call, as migrations are told it. */
  context: MigrationContext;
}): Buffer | undefined {
  const { reply, route, operation } = at;
  const refuse = (code: ErrorCode, detail: string) => void sendProblem(reply, new VersionaryError({ code, detail }));
  // A media type the older version's document does not take for it is never passed on (a form,
  // text); one it takes that is not JSON (multipart) cannot be translated and goes up as it is.
  const bodyTypes = operation.bodyTypes ?? ['application/json'];
  const type = at.type.split(';')[0]!.trim().toLowerCase();
  if (!bodyTypes.includes(type)) {
    const detail = `${route.self.name}'s ${operation.method} ${operation.path} takes ${bodyTypes.join(' or ')}, not ${echo(type) || 'a body without Content-Type'}.`;
    const headers: Record<string, string> =
      operation.method === 'PATCH' ? { 'accept-patch': bodyTypes.join(', ') } : {};
    return void sendProblem(reply, new VersionaryError({ code: ErrorCode.UnsupportedMediaType, detail, headers }));
  }
  if (!jsonMediaType.test(type)) return at.body;
  const codings = at.encoding.split(',').map((c) => c.trim().toLowerCase());
  if (!codings.every((c) => c === 'identity' || c === '')) {
    const detail = `Content-Encoding ${echo(at.encoding)} is not supported: send the body unencoded.`;
    const headers = { 'accept-encoding': 'identity' };
    return void sendProblem(reply, new VersionaryError({ code: ErrorCode.UnsupportedMediaType, detail, headers }));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(at.body.toString('utf8'));
  } catch {
    return refuse(ErrorCode.MalformedRequest, 'The request body is not valid JSON.');
  }
  if (deeperThan(parsed, jsonDepthLimit))
    return refuse(ErrorCode.MalformedRequest, `The request body is nested deeper than ${jsonDepthLimit} levels.`);
  const step = { operation: `${operation.method} ${operation.path}`, step: 'request check' };
  try {
    const invalid = route.checkRequest(at.schema, parsed);
    if (invalid) return void sendProblem(reply, invalid);
  } catch (error) {
    return ownFailure(reply, { ...step, error });
  }
  try {
    const up = route.plan.requestUp({
      schema: at.schema,
      body: parsed,
      from: route.self,
      to: route.root,
      operationId: operation.id,
      context: at.context,
    });
    return Buffer.from(JSON.stringify(up));
  } catch (error) {
    return ownFailure(reply, { ...step, step: 'request migration', error });
  }
}

/**
 * An upstream's JSON answer of `schema`, as the derived version gives it: checked against the
 * root's document, migrated down, stripped of what the derived document does not declare; else
 * its failure is answered here (a 502 problem, or the gateway's 500), and the answer is undefined.
 */
export function downBody(
  reply: FastifyReply,
  at: {
    route: DerivedVersionRoute;
    operation: OperationSpec;
    schema: string;
    raw: Buffer;
    checks: ReturnType<typeof createResponseChecks>;
    /** The call and the answer, as migrations are told them (by default, the operation alone). */
    context?: MigrationContext;
  },
): string | undefined {
  const { route, operation, schema } = at;
  const name = `${operation.method} ${operation.path}`;
  const refuse = (why: string) => untranslatable(reply, { operation: name, version: route.self.name, why });
  let parsed: unknown;
  try {
    parsed = JSON.parse(at.raw.toString('utf8'));
  } catch {
    return refuse('its body is not JSON');
  }
  if (deeperThan(parsed, jsonDepthLimit)) return refuse(`its body is nested deeper than ${jsonDepthLimit} levels`);
  const root = route.root;
  const violation = at.checks.of({ version: root, name: schema })(parsed);
  // A `fields=` answer is the schema's projection (`<Name>Partial`, where the document has one).
  const partial = `${schema}Partial`;
  if (violation && !(root.schemas[partial] && !at.checks.of({ version: root, name: partial })(parsed)))
    return refuse(`${placeOf(parsed, violation.pointer)} does not match ${root.name}'s document: ${violation.detail}`);
  let down: unknown;
  try {
    down = route.plan.responseDown({
      schema,
      body: parsed,
      from: root,
      to: route.self,
      operationId: operation.id,
      ...(at.context ? { context: at.context } : {}),
    });
  } catch (error) {
    return ownFailure(reply, { operation: name, step: 'response migration', error });
  }
  const misfit = route.dropUndeclared(schema, down);
  if (misfit !== undefined) return refuse(`${placeOf(down, misfit)} fits none of ${route.self.name}'s schemas for it`);
  return JSON.stringify(down);
}

/** Where a pointer is in a body, the record named first when the body is a list: `record 3 (/3/email)`. */
function placeOf(body: unknown, pointer: string): string {
  const record = Array.isArray(body) ? /^\/(\d+)(?:\/|$)/.exec(pointer)?.[1] : undefined;
  if (record !== undefined) return `record ${record} (${pointer})`;
  return pointer === '' || pointer === '/' ? 'the body' : `the member at ${pointer}`;
}

/** A migration that throws: the gateway's own 500, logged with the operation and the step. */
function ownFailure(reply: FastifyReply, at: { operation: string; step: string; error: unknown }): undefined {
  const logged = logFailure(reply.request, at.error, `${at.step} failed for ${at.operation}`);
  sendProblem(reply, internalError({ logged }));
  return undefined;
}

/** The 502 problem of an answer the derived version cannot be given, with one log line saying why. */
export function untranslatable(
  reply: FastifyReply,
  at: { operation: string; version: string; why: string },
): undefined {
  reply.request.log.error(
    { operation: at.operation, why: at.why },
    'upstream answer not translatable to the derived version',
  );
  sendProblem(
    reply,
    new VersionaryError({
      code: ErrorCode.UpstreamUntranslatable,
      detail: `The upstream's answer to ${at.operation} cannot be translated to ${at.version}: ${at.why}.`,
    }),
  );
  return undefined;
}

/** The schema of an answer: by its exact status, else its range (`2XX`), else `default`, as OpenAPI reads them. */
export function responseSchema(
  route: DerivedVersionRoute,
  operation: OperationSpec,
  status: number,
): string | undefined {
  const exact = operation.responses[status]?.schema;
  if (exact || operation.responses[status]) return exact;
  const ranges = route.ranges?.[operation.id];
  return ranges?.[`${Math.floor(status / 100)}XX`] ?? ranges?.DEFAULT;
}
