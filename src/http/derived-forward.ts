import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { endpointRemovedProblem } from '../core/rulebook/problems.ts';
import type { MigrationContext, OperationSpec } from '../core/versions/index.ts';
import { contentTag } from './caching.ts';
import { downBody, jsonMediaType, responseSchema, untranslatable, upBody } from './derived-bodies.ts';
import { judgeConditions } from './derived-conditional.ts';
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
import { sendProblem } from './problem.ts';
import { callWhole } from './upstream-call.ts';
import type { createResponseChecks } from './response-check.ts';

/** Upstream answers larger than this are not translated (a 502 problem): they are read whole. */
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
  const name = `${operation.method} ${operation.path}`;
  const refuse = (why: string) => untranslatable(reply, { operation: name, version: route.self.name, why });
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
  const call = await callUp({ ...options, headers: headersUp(endpoint, options.headers), path, context });
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
    const down = downBody(reply, {
      route,
      operation,
      schema,
      raw,
      checks: options.checks,
      context: { ...context, status: answer.statusCode, headers: upstream },
    });
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
  options: Parameters<typeof forwardDerived>[0] & { path: string; context: MigrationContext },
): Promise<{ headers: Headers; body: Buffer | undefined } | undefined> {
  const { request, reply, route, operation } = options;
  let headers: Headers = { ...options.headers };
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
  else if (!source && route.requiredBodies.has(operation.id)) return void missingBody(reply, route, operation);
  else if (source) {
    body = await readAll(source, request.routeOptions.bodyLimit ?? 1024 * 1024);
    if (!body) {
      const detail = 'The request body is over the size limit.';
      return void sendProblem(reply, new VersionaryError({ code: ErrorCode.PayloadTooLarge, detail }));
    }
    if (body.length === 0 && route.requiredBodies.has(operation.id)) return void missingBody(reply, route, operation);
    if (operation.body && body.length > 0) {
      const type = String(headers['content-type'] ?? '');
      const encoding = String(headers['content-encoding'] ?? 'identity');
      const context = options.context;
      body = upBody({ reply, route, operation, schema: operation.body, body, type, encoding, context });
      if (!body) return undefined;
    }
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const at = { reply, route, operation, pool: options.pool, path: options.path.split('?')[0]!, checks: options.checks };
  const judged = await judgeConditions({ ...at, headers });
  if (!judged) return undefined;
  headers = judged;
  return { headers, body };
}

/** The 400 problem of a call without the body its operation requires in the derived version's document. */
function missingBody(reply: FastifyReply, route: DerivedVersionRoute, operation: OperationSpec): void {
  const name = operation.body ? `a ${operation.body}` : 'a body';
  const detail = `${route.self.name}'s ${operation.method} ${operation.path} requires a request body: send ${name} as ${(operation.bodyTypes ?? ['application/json']).join(' or ')}.`;
  sendProblem(
    reply,
    new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail,
      errors: [{ pointer: '/body', detail: 'is required' }],
    }),
  );
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
  let problem: unknown;
  try {
    problem = JSON.parse(raw.toString('utf8'));
  } catch {
    return raw;
  }
  const instance = (problem as { instance?: unknown } | null)?.instance;
  if (typeof instance !== 'string' || !instance.startsWith(`${at.from}/`)) return raw;
  const [upstream, client] = at.call.map((target) => target.split('?')[0]!);
  const own = instance === upstream ? client! : linkIn(instance, at);
  return JSON.stringify({ ...(problem as object), instance: own });
}
