import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { endpointRemovedProblem } from '../core/rulebook/problems.ts';
import type { MigrationContext, OperationSpec } from '../core/versions/index.ts';
import { contentTag } from './caching.ts';
import type { DerivedVersionRoute } from './forward-options.ts';
import {
  headersDown,
  headersUp,
  migrationContext,
  splitTarget,
  statusDown,
  upstreamTarget,
} from './derived-transport.ts';
import { setResponseHeaders, type Headers } from './forward-headers.ts';
import { internalError, logFailure, sendProblem } from './problem.ts';
import { callWhole } from './upstream-call.ts';
import type { createResponseChecks } from './response-check.ts';

/**
 * Upstream answers larger than this are not translated (a 502 problem): they are read whole. A
 * current representation as large cannot be tagged, so its conditions cannot be judged.
 */
const answerLimit = 8 * 1024 * 1024;

/**
 * Forward one call of a derived version: the request translated up to the root version (`callUp`),
 * the answer read whole and translated down, its `ETag`, links and a problem's `instance` in the
 * derived version's terms. An answer that cannot be translated is a 502 problem, never a
 * half-translated body; an answer that is not JSON passes as it is.
 */
export async function forwardDerived(options: {
  request: FastifyRequest;
  reply: FastifyReply;
  route: DerivedVersionRoute;
  operation: OperationSpec;
  pool: Dispatcher;
  /** The path and query as received, below `routed` (`/api/v1/users?page=2`). */
  url: string;
  routed: string;
  headers: Headers;
  checks: ReturnType<typeof createResponseChecks>;
  vendor: string;
}): Promise<void> {
  const { request, reply, route, operation } = options;
  const refuse = (why: string) => untranslatable(options, why);
  const endpoint = route.endpoints.get(operation.id);
  // Removed by a newer version with nothing serving it: the table's row refused it already (its
  // 410); were it ever reached, it is still never forwarded.
  if (!endpoint?.route)
    return void sendProblem(
      reply,
      endpointRemovedProblem({
        endpoint: `${operation.method.toUpperCase()} ${options.routed}${operation.path}`,
        removedIn: endpoint?.removedIn ?? route.root.name,
        version: route.self.name,
      }),
    );
  const target = options.url.slice(options.routed.length);
  // The parameters in the derived version's terms first: a bad one never goes up.
  const invalid = route.checkParameters(operation, splitTarget(target));
  if (invalid) return void sendProblem(reply, invalid);
  const path = route.rootBase + upstreamTarget(endpoint, operation, target);
  const context = migrationContext(request, operation, target);
  // The root's route that serves the call says whether it requires a body: a derived operation may
  // have an id of its own (an `endpoint-removed` served by an `upstreamPath`).
  const required = route.requiredBodies.has(`${endpoint.route.method} ${endpoint.route.path}`);
  const call = await callUp({ ...options, headers: headersUp(endpoint, options.headers), path, context, required });
  if (!call) return;
  const { headers, body } = call;
  const answer = await callWhole(options.pool, {
    // A HEAD is asked as a GET: its length and tag are the translated body's, which only the body gives.
    method: (request.method === 'HEAD' ? 'GET' : endpoint.route.method) as Dispatcher.HttpMethod,
    path,
    headers,
    body: body ?? null,
    limit: answerLimit,
  });
  if ('tooLarge' in answer) return refuse('its body is over 8 MiB');
  const raw = answer.body;
  const upstream = answer.headers as Headers;
  const type = String(upstream['content-type'] ?? '');
  const status = statusDown(endpoint, answer.statusCode);
  const schema = responseSchema(route, operation, status);
  let payload: Buffer | string = raw;
  const between = { from: route.rootBase, to: options.routed };
  const json = jsonMediaType.test(type);
  // A success in JSON that the newer document gives no schema for cannot be translated: refused,
  // never passed on in the newer version's shape.
  if (!schema && json && answer.statusCode >= 200 && answer.statusCode < 300 && raw.length > 0)
    return refuse(`${route.root.name}'s document gives no schema for status ${answer.statusCode}`);
  const encoding = String(upstream['content-encoding'] ?? 'identity').toLowerCase();
  if (json && encoding !== 'identity') return refuse(`its body is encoded (${encoding})`);
  if (schema && json) {
    const told = { ...context, status: answer.statusCode, headers: upstream };
    const down = downBody({ reply, route, operation, schema, raw, checks: options.checks, context: told });
    if (down === undefined) return;
    payload = down;
    // The tag is the translated body's, as the derived version's GET gives it (the caching step tags a GET).
    if (upstream.etag !== undefined) upstream.etag = contentTag(payload);
  } else if (problemMediaType.test(type)) payload = inDerivedTerms(raw, { ...between, call: [path, options.url] });
  // Links the upstream wrote point into the root version; the client stays in its own.
  for (const name of ['location', 'link', 'content-location']) {
    const value = upstream[name];
    if (value !== undefined)
      upstream[name] = Array.isArray(value) ? value.map((v) => linkIn(v, between)) : linkIn(value, between);
  }
  delete upstream['content-length'];
  delete upstream['transfer-encoding'];
  headersDown(endpoint, upstream);
  setResponseHeaders(upstream, reply);
  reply.code(status).send(payload);
}

/**
 * What goes up for a call: the body read whole, checked and migrated up, and the headers with the
 * conditions judged (a GET's `If-None-Match` is the caching step's); undefined once a problem was sent.
 */
async function callUp(
  options: Parameters<typeof forwardDerived>[0] & { path: string; context: MigrationContext; required: boolean },
): Promise<{ headers: Headers; body: Buffer | undefined } | undefined> {
  const { request, reply, route, operation, required } = options;
  const headers: Headers = { ...options.headers };
  let body: Buffer | undefined;
  const source = request.body as Readable | undefined;
  // Bodies are translated as JSON text: the upstream is asked for them unencoded.
  headers['accept-encoding'] = 'identity';
  // The root's media type: the upstream serves the root version only.
  const accept = headers.accept;
  const own = `vnd.${options.vendor}.${route.self.name}`;
  if (typeof accept === 'string' && accept.includes(own))
    headers.accept = accept.split(own).join(`vnd.${options.vendor}.${route.root.name}`);
  if (request.method === 'GET' || request.method === 'HEAD') delete headers['if-none-match'];
  else if (!source && required) return void missingBody(reply, route, operation);
  else if (source) {
    body = await readAll(source, request.routeOptions.bodyLimit ?? 1024 * 1024);
    if (!body) {
      const detail = 'The request body is over the size limit.';
      return void sendProblem(reply, new VersionaryError({ code: ErrorCode.PayloadTooLarge, detail }));
    }
    if (body.length === 0 && required) return void missingBody(reply, route, operation);
    if (operation.body && body.length > 0) {
      const type = String(headers['content-type'] ?? '');
      const encoding = String(headers['content-encoding'] ?? 'identity');
      body = upBody({ ...options, schema: operation.body, body, type, encoding });
      if (!body) return undefined;
    }
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const judged = await judgeConditions(options, options.path.split('?')[0]!, headers);
  return judged && { headers: judged, body };
}

/** The 400 problem of a call without the body its operation requires in the derived version's document. */
function missingBody(reply: FastifyReply, route: DerivedVersionRoute, operation: OperationSpec): void {
  const name = operation.body ? `a ${operation.body}` : 'a body';
  const detail = `${route.self.name}'s ${operation.method} ${operation.path} requires a request body: send ${name} as ${(operation.bodyTypes ?? ['application/json']).join(' or ')}.`;
  const errors = [{ pointer: '/body', detail: 'is required' }];
  sendProblem(reply, new VersionaryError({ code: ErrorCode.ValidationFailed, detail, errors }));
}

/** The whole body, or undefined once it passes `limit` bytes. */
async function readAll(source: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      source.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const problemMediaType = /^application\/problem\+json\s*(?:;|$)/i;

/** A link into the root version (`/api/v2/users/1`), pointed into the derived one's (`/api/v1/users/1`). */
function linkIn(value: string, at: { from: string; to: string }): string {
  return value.split(`${at.from}/`).join(`${at.to}/`);
}

/**
 * An upstream's problem with its `instance` in the derived version's paths (`call`: the upstream's
 * target and the client's, a moved endpoint's instance being the client's path).
 */
function inDerivedTerms(raw: Buffer, at: { from: string; to: string; call: [string, string] }): Buffer | string {
  const problem = jsonOf(raw);
  const instance = (problem as { instance?: unknown } | null)?.instance;
  if (typeof instance !== 'string' || !instance.startsWith(`${at.from}/`)) return raw;
  const [upstream, client] = at.call.map((target) => target.split('?')[0]!);
  const own = instance === upstream ? client! : linkIn(instance, at);
  return JSON.stringify({ ...(problem as object), instance: own });
}

/**
 * A call's `If-Match` (and a write's `If-None-Match`) in the derived version's terms. They name
 * tags of translated bodies, which the upstream never gave (passed on, every conditional write
 * would be a 412): the gateway reads the resource as the derived version's GET gives it, judges
 * the conditions on its tag, and sends the 412 itself. Otherwise the call goes up with the
 * upstream's own tag of what was read in `If-Match`, so a change in between is still refused.
 * A `*` alone passes as it is. Answers the headers to send, or undefined once an answer was sent.
 */
async function judgeConditions(
  call: Parameters<typeof forwardDerived>[0],
  /** The resource's path at the upstream (`/api/v2/users/1`). */
  path: string,
  headers: Headers,
): Promise<Headers | undefined> {
  const { route, operation } = call;
  const ifMatch = tagsOf(headers['if-match']);
  const ifNoneMatch = tagsOf(headers['if-none-match']);
  const judged = (tags: string[] | undefined) => tags !== undefined && !(tags.length === 1 && tags[0] === '*');
  if (!judged(ifMatch) && !judged(ifNoneMatch)) return headers;
  const read = route.self.operations.find((op) => op.method === 'GET' && op.path === operation.path);
  // Nothing the derived version reads there: its clients hold no tag of it to send.
  if (!read) return headers;
  const current = await currentTags({ ...call, operation: read }, path, headers);
  if (current === undefined) return undefined;
  const matches = (tags: string[], weak: boolean) =>
    current.tag !== undefined && tags.some((t) => t === '*' || t === current.tag || (weak && t === `W/${current.tag}`));
  // If-Match compares strongly, If-None-Match weakly (RFC 9110, 13.1.1 and 13.1.2).
  if ((ifMatch && !matches(ifMatch, false)) || (ifNoneMatch && matches(ifNoneMatch, true))) {
    const detail = `The ${ifMatch ? 'If-Match' : 'If-None-Match'} condition does not hold for the ${route.self.name} representation of this resource.`;
    return void sendProblem(call.reply, new VersionaryError({ code: ErrorCode.PreconditionFailed, detail }));
  }
  const out: Headers = { ...headers };
  delete out['if-match'];
  delete out['if-none-match'];
  if (ifMatch && current.upstream !== undefined) out['if-match'] = current.upstream;
  return out;
}

/** The derived version's tag of the resource as its GET (`read`) gives it (none but for a 200) and the upstream's; undefined once a problem was sent. */
async function currentTags(
  read: Parameters<typeof judgeConditions>[0],
  path: string,
  conditional: Headers,
): Promise<{ tag?: string; upstream?: string } | undefined> {
  const { reply, route, operation, checks } = read;
  const headers: Headers = { ...conditional };
  for (const name of ['if-match', 'if-none-match', 'content-type', 'content-length', 'transfer-encoding'])
    delete headers[name];
  const answer = await callWhole(read.pool, { method: 'GET', path, headers, body: null, limit: answerLimit });
  if ('tooLarge' in answer) return {};
  const schema = responseSchema(route, operation, answer.statusCode);
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.statusCode !== 200 || !schema || !jsonMediaType.test(type)) return {};
  const body = downBody({ reply, route, operation, schema, raw: answer.body, checks });
  if (body === undefined) return undefined;
  const upstream = answer.headers.etag;
  return { tag: contentTag(body), ...(typeof upstream === 'string' ? { upstream } : {}) };
}

function tagsOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const tags = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return tags.length > 0 ? tags : undefined;
}

/**
 * `application/json` and every `+json` type (`application/hal+json`, `application/vnd.api+json`),
 * with or without parameters; not `application/problem+json`: a problem passes as it is.
 */
const jsonMediaType = /^application\/(?!problem\+)(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i;

/**
 * A derived version's request body as it goes up: checked in its own terms, then migrated to the
 * root version; a 4xx problem (or a migration's 500) is sent here, and the answer is undefined.
 */
function upBody(
  at: DerivedCall & {
    /** The operation's request body schema, in the derived version's document. */
    schema: string;
    body: Buffer;
    type: string;
    /** `Content-Encoding`: a body is checked and migrated as JSON text, so only `identity` is taken. */
    encoding: string;
    /** The call, as migrations are told it. */
    context: MigrationContext;
  },
): Buffer | undefined {
  const { reply, route, operation } = at;
  const refuse = (code: ErrorCode, detail: string, headers?: Record<string, string>) =>
    void sendProblem(reply, new VersionaryError({ code, detail, headers }));
  // A media type the older version's document does not take for it is never passed on (a form,
  // text); one it takes that is not JSON (multipart) cannot be translated and goes up as it is.
  const bodyTypes = operation.bodyTypes ?? ['application/json'];
  const type = at.type.split(';')[0]!.trim().toLowerCase();
  if (!bodyTypes.includes(type)) {
    const detail = `${route.self.name}'s ${operation.method} ${operation.path} takes ${bodyTypes.join(' or ')}, not ${echo(type) || 'a body without Content-Type'}.`;
    const patch = operation.method === 'PATCH' ? { 'accept-patch': bodyTypes.join(', ') } : undefined;
    return refuse(ErrorCode.UnsupportedMediaType, detail, patch);
  }
  if (!jsonMediaType.test(type)) return at.body;
  const codings = at.encoding.split(',').map((c) => c.trim().toLowerCase());
  if (!codings.every((c) => c === 'identity' || c === '')) {
    const detail = `Content-Encoding ${echo(at.encoding)} is not supported: send the body unencoded.`;
    return refuse(ErrorCode.UnsupportedMediaType, detail, { 'accept-encoding': 'identity' });
  }
  const parsed = jsonOf(at.body);
  if (parsed === notJson) return refuse(ErrorCode.MalformedRequest, 'The request body is not valid JSON.');
  if (deeperThan(parsed, jsonDepthLimit))
    return refuse(ErrorCode.MalformedRequest, `The request body is nested deeper than ${jsonDepthLimit} levels.`);
  try {
    const invalid = route.checkRequest(at.schema, parsed);
    if (invalid) return void sendProblem(reply, invalid);
  } catch (error) {
    return ownFailure(at, 'request check', error);
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
    return ownFailure(at, 'request migration', error);
  }
}

/**
 * An upstream's JSON answer of `schema`, as the derived version gives it: checked against the
 * root's document, migrated down, stripped of what the derived document does not declare; else
 * its failure is answered here (a 502 problem, or the gateway's 500), and the answer is undefined.
 */
function downBody(
  at: DerivedCall & {
    schema: string;
    raw: Buffer;
    checks: ReturnType<typeof createResponseChecks>;
    /** The call and the answer, as migrations are told them (by default, the operation alone). */
    context?: MigrationContext;
  },
): string | undefined {
  const { route, operation, schema } = at;
  const refuse = (why: string) => untranslatable(at, why);
  const parsed = jsonOf(at.raw);
  if (parsed === notJson) return refuse('its body is not JSON');
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
    return ownFailure(at, 'response migration', error);
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
function ownFailure({ reply, operation }: DerivedCall, step: string, error: unknown): undefined {
  const logged = logFailure(reply.request, error, `${step} failed for ${operation.method} ${operation.path}`);
  return void sendProblem(reply, internalError({ logged }));
}

/** The 502 problem of an answer the derived version cannot be given, with one log line saying why. */
function untranslatable({ reply, route, operation: op }: DerivedCall, why: string): undefined {
  const operation = `${op.method} ${op.path}`;
  reply.request.log.error({ operation, why }, 'upstream answer not translatable to the derived version');
  const detail = `The upstream's answer to ${operation} cannot be translated to ${route.self.name}: ${why}.`;
  return void sendProblem(reply, new VersionaryError({ code: ErrorCode.UpstreamUntranslatable, detail }));
}

/** What the translation of a call's bodies and its failures read of it. */
type DerivedCall = Pick<Parameters<typeof forwardDerived>[0], 'reply' | 'route' | 'operation'>;

/** The schema of an answer: by its exact status, else its range (`2XX`), else `default`, as OpenAPI reads them. */
function responseSchema(route: DerivedVersionRoute, operation: OperationSpec, status: number): string | undefined {
  const exact = operation.responses[status]?.schema;
  if (exact || operation.responses[status]) return exact;
  const served = route.endpoints.get(operation.id)?.route;
  const ranges = served && route.ranges?.[`${served.method} ${served.path}`];
  return ranges?.[`${Math.floor(status / 100)}XX`] ?? ranges?.DEFAULT;
}

/** Bodies a derived version translates nest at most this deep: the migrations recurse along the body. */
const jsonDepthLimit = 128;

const notJson = Symbol('not JSON');

/** A body's JSON value, or {@link notJson} (whose `instance` is undefined too) when it does not parse. */
function jsonOf(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return notJson;
  }
}

/** Whether a parsed JSON value nests deeper than `limit`; it recurses at most `limit` levels. */
function deeperThan(value: unknown, limit: number, depth = 1): boolean {
  if (value === null || typeof value !== 'object') return false;
  // A parsed value's members are all its own (JSON.parse makes `__proto__` one, too).
  return depth > limit || Object.values(value).some((member) => deeperThan(member, limit, depth + 1));
}
