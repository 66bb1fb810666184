import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { MigrationContext, OperationSpec } from '../core/versions/index.ts';
import type { FieldSelection } from '../core/versions/field-selection.ts';
import { stateOf } from './pipeline/request-state.ts';
import { parseIfMatch, revisionTag } from './operation.ts';
import type { OperationResult } from './operation-types.ts';
import { sendProblem, writesErrors } from './problem.ts';
import type { ResponseCheck, ResponseViolation } from './response-check.ts';
import { hiddenInputFields, stillHidden } from './route-schemas.ts';
import type { VersionScope } from './version-scope.ts';
import { setOrJoin } from './set-or-join.ts';

/** The route handler of one operation: request migrated up, the one handler, response migrated down and checked. */
export function createOperationHandler(
  scope: VersionScope,
  operation: OperationSpec,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const { bundle, version, base } = scope;
  const handler = scope.handlers[operation.id]!;
  const hidden = hiddenInputFields({ head: bundle.latest, version, name: operation.body });
  const checked = createCheckedResponse(scope, operation);
  // The kept names are the handler's own (the newest representation's) only in the newest version.
  const newest = version === bundle.latest;
  return async (request, reply) => {
    // `integer` members of the query arrive as numbers (the `input:query-integers` step); the rest are strings.
    const query = request.query as Record<string, string | undefined>;
    const selection = scope.select(operation, query.fields);
    const context = {
      operation: { id: operation.id, method: operation.method, path: operation.path },
      params: request.params as Record<string, string>,
      query: request.query as Record<string, string>,
      headers: request.headers,
    };
    const body = operation.body
      ? bundle.migrations.requestUp({
          schema: operation.body,
          body: request.body,
          from: version,
          to: bundle.latest,
          operationId: operation.id,
          context,
        })
      : undefined;
    const result = await handler({
      version,
      operation,
      body,
      query,
      hiddenFields: stillHidden({ hidden, sent: request.body, body }),
      ...(selection && newest ? { fields: selection.keep } : {}),
      params: request.params as Record<string, string>,
      ifMatch: parseIfMatch(request.headers['if-match']),
      clientId: scope.clientIdOf(request),
      url: (path) => base + path,
      request,
    });
    const { out, violation } = checked(result, selection, context);
    if (violation) return refuseResponse({ scope, operation, request, reply }, { result, violation });
    if (result.location) reply.header('location', base + result.location);
    if (result.revision !== undefined)
      reply.header('etag', revisionTag({ revision: result.revision, version: version.name, fields: query.fields }));
    for (const [name, value] of Object.entries(result.headers ?? {})) setOrJoin(reply, name, value);
    if (stateOf(request).versionFromAccept) reply.header('vary', 'Accept');
    reply.code(result.status);
    return out === undefined ? reply.send() : out;
  };
}

/** Log a response that breaks its own schema, and answer 500 instead of sending it. */
function refuseResponse(
  at: { scope: VersionScope; operation: OperationSpec; request: FastifyRequest; reply: FastifyReply },
  { result, violation }: { result: OperationResult; violation: ResponseViolation },
): FastifyReply {
  const { scope, operation, request, reply } = at;
  const version = scope.version.name;
  const schema = operation.responses[result.status]?.schema;
  request.log.error(
    {
      operationId: operation.id,
      version,
      status: result.status,
      schema,
      pointer: violation.pointer,
      violation: violation.detail,
    },
    `response of ${operation.id} does not match ${version}'s schema ${schema}: ${violation.pointer || '(body)'} ${violation.detail}`,
  );
  const logged = writesErrors(request) ? " It has been logged with this problem's requestId." : '';
  return sendProblem(
    reply,
    new VersionaryError({
      code: ErrorCode.Internal,
      detail: `The server built a response that does not match its own schema for this version, and did not send it.${logged}`,
    }),
  );
}

/** The body to send, migrated down to the version and projected to the fieldset, or why it may not go out. */
type CheckedResponse = (
  result: OperationResult,
  selection: FieldSelection | undefined,
  /** The call, as response migrations are told it. */
  context?: MigrationContext,
) => { out: unknown; violation: ResponseViolation | undefined };

/** The response path of one operation: migration down, projection, and the check of what goes out. */
function createCheckedResponse(scope: VersionScope, operation: OperationSpec): CheckedResponse {
  const { bundle, version, checks } = scope;
  // Compiled here, at start, so a schema the validator cannot compile fails registration.
  const checkOf = new Map<number, ResponseCheck>();
  for (const [status, spec] of Object.entries(operation.responses)) {
    if (spec.schema && checks) checkOf.set(Number(status), checks.of({ version, name: spec.schema }));
  }
  // A partial response is checked after `fields` projects it, against the same schema without
  // the partial schema's `required`: the check covers what goes out, and a handler may read
  // only what the fieldset keeps.
  const partialCheckOf = new Map<number, ResponseCheck>();
  const root = operation.responses[200]?.schema ?? operation.responses[201]?.schema;
  for (const status of [200, 201]) {
    if (checks && operation.partial && root && operation.responses[status]?.schema === root)
      partialCheckOf.set(status, checks.partialOf({ version, name: root, target: operation.partial }));
  }
  // The newest version's answers are the handler's own: no migration runs, so none is set up per call.
  const migrates = version !== bundle.latest;
  return (result, selection, context) => {
    let out = result.body;
    const schema = migrates ? operation.responses[result.status]?.schema : undefined;
    if (out !== undefined && schema)
      out = bundle.migrations.responseDown({
        schema,
        body: out,
        from: bundle.latest,
        to: version,
        ...(context ? { context: { ...context, status: result.status, headers: result.headers ?? {} } } : {}),
      });
    const partialCheck = selection && out !== undefined ? partialCheckOf.get(result.status) : undefined;
    if (selection && partialCheck) {
      // Projected first, then checked: only what the fieldset leaves is the handler's to answer for.
      const projected = selection.projectChecked(out);
      const violation =
        projected.missing !== undefined
          ? { pointer: '', detail: `has a ${selection.target} without ${projected.missing}, which it requires` }
          : partialCheck(projected.body);
      return { out: projected.body, violation };
    }
    const check = checkOf.get(result.status);
    const violation = check
      ? out === undefined
        ? { pointer: '', detail: 'is missing: the status has a body schema' }
        : check(out)
      : undefined;
    if (!violation && selection && out !== undefined) out = selection.project(out);
    return { out, violation };
  };
}
