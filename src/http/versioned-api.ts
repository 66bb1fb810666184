import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { compileElementUses, fieldSchemas, servedSchemas, type ElementDeprecation } from '../core/lifecycle/index.ts';
import { resolveVersion } from '../core/negotiation/index.ts';
import {
  createFieldSelector,
  type ApiVersion,
  type OperationSpec,
  type VersionBundle,
} from '../core/versions/index.ts';
import { isVersionFromAccept } from './negotiation.ts';
import { callbackHook } from './pipeline/callback-hook.ts';
import { runHooks, type VersionedRequestHook } from './version-hooks.ts';
import { parseIfMatch, revisionTag } from './operation.ts';
import type { OperationHandler } from './operation-types.ts';
import { sendProblem, writesErrors } from './problem.ts';
import { integerCoercion } from './query-integers.ts';
import { createRequestValidatorCompiler } from './request-validator.ts';
import { createResponseChecks, type ResponseCheck, type ResponseViolation } from './response-check.ts';
import { hiddenInputFields, stillHidden, toRouteSchema } from './route-schemas.ts';

export type { VersionedRequestHook } from './version-hooks.ts';

/** Hears each call that reached an operation: the version's name and `METHOD /template`. */
export type OperationCallListener = (request: FastifyRequest, version: string, endpoint: string) => void;

/** Options for {@link registerVersionedApi}. */
export interface VersionedApiOptions {
  bundle: VersionBundle;
  handlers: Record<string, OperationHandler>;
  /** Where the API lives, for example `/api`. */
  prefix: string;
  vendor: string;
  onVersionedRequest?: VersionedRequestHook[];
  /**
   * Told once per call routed to an operation (`endpoint` is `METHOD /template`), before the
   * hooks; not for the `OPTIONS` and 405 answers of a path.
   */
  onOperationCall?: OperationCallListener;
  /** Who is calling; defaults to the remote address. */
  clientIdOf?: (request: FastifyRequest) => string;
  /** Check every response body against its version's schema before it goes out (default true). */
  validateResponses?: boolean;
  /** Deprecated fields and query parameters: `onUse` hears each request that uses one, and may throw to refuse it. */
  elementUses?: {
    elements: readonly ElementDeprecation[];
    onUse: (options: ElementUseEvent) => void;
  };
}

/** A request that uses deprecated elements, told to {@link VersionedApiOptions.elementUses}. */
export interface ElementUseEvent {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
  used: ElementDeprecation[];
}

// Every method Fastify can route (TRACE and QUERY included): a known path answers each with 405, never 404.
const routedMethods = (app: FastifyInstance) => app.supportedMethods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');

/**
 * Register every operation of every version as its own route, with that version's schemas for
 * validation and serialisation (compiled once, at start), request migration up to the head,
 * the one handler, response migration down and partial responses. Unknown methods on a known
 * path answer 405 with `Allow`; OPTIONS answers 204 with `Allow`.
 */
export function registerVersionedApi(app: FastifyInstance, options: VersionedApiOptions): void {
  const missing = options.bundle.head.operations.filter((op) => !options.handlers[op.id]).map((op) => op.id);
  if (missing.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.InvalidDefinition,
      detail: `No handler for operation(s): ${missing.join(', ')}.`,
    });
  }
  const checks = options.validateResponses === false ? undefined : createResponseChecks();
  const validatorCompiler = createRequestValidatorCompiler();
  for (const version of options.bundle.versions)
    registerVersion(app, { ...options, version, checks, validatorCompiler });
}

function registerVersion(
  app: FastifyInstance,
  options: VersionedApiOptions & {
    version: ApiVersion;
    checks: ReturnType<typeof createResponseChecks> | undefined;
    validatorCompiler: FastifySchemaCompiler<unknown>;
  },
): void {
  const { bundle, version, prefix, vendor } = options;
  const base = `${prefix}/${version.name}`;
  const supported = bundle.versions.map((v) => v.name);
  const select = createFieldSelector(version);
  const methodsByPath = new Map<string, string[]>();
  const firstOperation = new Map<string, OperationSpec>();
  const clientIdOf = options.clientIdOf ?? ((r: FastifyRequest) => r.ip);
  const hooks = options.onVersionedRequest ?? [];
  // A field deprecation reaches every schema of this version's document that it names or, named once, that carries it.
  const served = options.elementUses ? servedSchemas(version) : {};
  const reach = (e: Parameters<typeof fieldSchemas>[0]) => fieldSchemas(e, served);

  for (const operation of version.operations) {
    const url = base + operation.path.replace(/\{([^}]+)\}/g, ':$1');
    methodsByPath.set(url, [...(methodsByPath.get(url) ?? []), operation.method]);
    if (!firstOperation.has(url)) firstOperation.set(url, operation);
    const handler = options.handlers[operation.id]!;
    const hidden = hiddenInputFields({ head: bundle.latest, version, name: operation.body });
    const bodyTypes = operation.bodyTypes ?? ['application/json'];
    const integers = integerCoercion(operation.query);
    // Compiled once per operation: one without deprecated elements gets no check at all.
    const usesOf =
      options.elementUses &&
      compileElementUses({ version: version.name, operation, elements: options.elementUses.elements, reach });
    const onUse = options.elementUses?.onUse;
    const endpoint = `${operation.method} ${operation.path}`;
    const onCall = options.onOperationCall;
    const response: Record<number, unknown> = {};
    for (const status of [200, 201]) {
      const name = operation.responses[status]?.schema;
      if (name) response[status] = toRouteSchema({ version, name, forSerializer: true });
    }
    // Compiled here, at start, so a schema the validator cannot compile fails registration.
    const checkOf = new Map<number, ResponseCheck>();
    for (const [status, spec] of Object.entries(operation.responses)) {
      if (spec.schema && options.checks) checkOf.set(Number(status), options.checks.of({ version, name: spec.schema }));
    }
    // A partial response is checked after `fields` projects it, against the same schema without
    // the partial schema's `required`: the check covers what goes out, and a handler may read
    // only what the fieldset keeps.
    const partialCheckOf = new Map<number, ResponseCheck>();
    const root = operation.responses[200]?.schema ?? operation.responses[201]?.schema;
    for (const status of [200, 201]) {
      if (options.checks && operation.partial && root && operation.responses[status]?.schema === root)
        partialCheckOf.set(status, options.checks.partialOf({ version, name: root, target: operation.partial }));
    }
    // The kept names are the handler's own (the newest representation's) only in the newest version.
    const newest = version === bundle.latest;
    app.route({
      method: operation.method,
      url,
      schema: {
        ...(operation.body ? { body: toRouteSchema({ version, name: operation.body }) } : {}),
        querystring: operation.query ?? { type: 'object', additionalProperties: false },
        response,
      },
      // The route's own: whatever the app's `ajv` options, the body is held to the document.
      validatorCompiler: options.validatorCompiler,
      // The version and lifecycle phases of this route, compiled here: a hook that returns at once is not awaited.
      onRequest: (request, reply, done) => {
        try {
          resolveVersion({ pathVersion: version.number, accept: request.headers.accept, supported, vendor });
          onCall?.(request, version.name, endpoint);
        } catch (error) {
          return done(error as Error);
        }
        runHooks(hooks, { request, reply, version, operation }, done);
      },
      // Synchronous: a hook that returns no promise costs no turn of the microtask queue.
      preValidation: callbackHook((request, reply) => {
        integers(request);
        if (usesOf && onUse) {
          const used = usesOf({ body: request.body, query: request.query as Record<string, unknown> });
          if (used.length > 0) onUse({ request, reply, version, operation, used });
        }
        if (!operation.body) return;
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (!bodyTypes.includes(type)) {
          throw new VersionaryError({
            code: ErrorCode.UnsupportedMediaType,
            detail: `${operation.method} ${operation.path} takes ${bodyTypes.join(' or ')}, not ${type || 'a body without Content-Type'}.`,
            headers: operation.method === 'PATCH' ? { 'accept-patch': bodyTypes.join(', ') } : {},
          });
        }
      }),
      handler: async (request, reply) => {
        // `integer` members of the query arrive as numbers (see integerQuery); the rest are strings.
        const query = request.query as Record<string, string | undefined>;
        const selection = select(operation, query.fields);
        const body = operation.body
          ? bundle.migrations.requestUp({
              schema: operation.body,
              body: request.body,
              from: version,
              to: bundle.latest,
              operationId: operation.id,
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
          clientId: clientIdOf(request),
          url: (path) => base + path,
          request,
        });
        let out = result.body;
        const schema = operation.responses[result.status]?.schema;
        if (out !== undefined && schema)
          out = bundle.migrations.responseDown({ schema, body: out, from: bundle.latest, to: version });
        let violation: ResponseViolation | undefined;
        const partialCheck = selection && out !== undefined ? partialCheckOf.get(result.status) : undefined;
        if (selection && partialCheck) {
          // Projected first, then checked: only what the fieldset leaves is the handler's to answer for.
          const projected = selection.projectChecked(out);
          out = projected.body;
          violation =
            projected.missing !== undefined
              ? { pointer: '', detail: `has a ${selection.target} without ${projected.missing}, which it requires` }
              : partialCheck(out);
        } else {
          const check = checkOf.get(result.status);
          violation = check
            ? out === undefined
              ? { pointer: '', detail: 'is missing: the status has a body schema' }
              : check(out)
            : undefined;
          if (!violation && selection && out !== undefined) out = selection.project(out);
        }
        if (violation) {
          request.log.error(
            {
              operationId: operation.id,
              version: version.name,
              status: result.status,
              schema,
              pointer: violation.pointer,
              violation: violation.detail,
            },
            `response of ${operation.id} does not match ${version.name}'s schema ${schema}: ${violation.pointer || '(body)'} ${violation.detail}`,
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
        if (result.location) reply.header('location', base + result.location);
        if (result.revision !== undefined)
          reply.header('etag', revisionTag({ revision: result.revision, version: version.name, fields: query.fields }));
        for (const [name, value] of Object.entries(result.headers ?? {})) setOrJoin(reply, name, value);
        if (isVersionFromAccept(request.raw)) reply.header('vary', 'Accept');
        reply.code(result.status);
        return out === undefined ? reply.send() : out;
      },
    });
  }
  for (const [url, methods] of methodsByPath) {
    const operation = firstOperation.get(url)!;
    // The version's hooks run here too, so a removed version refuses OPTIONS and other methods alike.
    const onRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      const asCalled = { ...operation, method: request.method as OperationSpec['method'] };
      runHooks(hooks, { request, reply, version, operation: asCalled }, done);
    };
    registerMethodGuard(app, { url, methods, onRequest });
  }
}

function registerMethodGuard(
  app: FastifyInstance,
  options: {
    url: string;
    methods: string[];
    onRequest: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
  },
): void {
  const allow = [...options.methods, ...(options.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const others = routedMethods(app).filter((m) => !options.methods.includes(m));
  app.route({
    method: 'OPTIONS',
    url: options.url,
    onRequest: options.onRequest,
    handler: async (_request, reply) => reply.code(204).header('allow', allow).send(),
  });
  if (others.length === 0) return;
  const refuse = async (request: FastifyRequest) => {
    throw new VersionaryError({
      code: ErrorCode.MethodNotAllowed,
      detail: `${request.method} is not supported here. Allowed: ${allow}.`,
      headers: { allow },
    });
  };
  app.route({
    method: others,
    url: options.url,
    // Refused in onRequest, before the body is read: a body (or QUERY's required Content-Type) cannot turn the 405 into a 400 or 415.
    onRequest: [options.onRequest, refuse],
    handler: refuse,
  });
}

/** Fields that hold a list: a handler's value joins what the hooks set (a deprecation `Link` and a pagination `Link` both stay). */
const listFields = new Set(['link', 'vary']);

/** Set a response header, or for a list-valued field append to the value already there. */
function setOrJoin(reply: FastifyReply, name: string, value: string): void {
  const existing = reply.getHeader(name);
  if (!listFields.has(name.toLowerCase()) || existing === undefined || existing === '') {
    reply.header(name, value);
    return;
  }
  reply.header(name, `${Array.isArray(existing) ? existing.join(', ') : String(existing)}, ${value}`);
}
