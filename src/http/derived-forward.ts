import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { downBody, jsonMediaType, untranslatable, upBody } from './derived-bodies.ts';
import type { DerivedVersionRoute } from './derived-route.ts';
import { setResponseHeaders, type Headers } from './forward-headers.ts';
import { sendProblem } from './problem.ts';
import type { createResponseChecks } from './response-check.ts';

/** Upstream answers larger than this are not translated (a 502 problem): they are read whole. */
const answerLimit = 8 * 1024 * 1024;

/**
 * Forward one call of a derived version: the request body (JSON) migrated up to the root version
 * and sent to the root's path, the answer read whole, checked against the root's document, and
 * migrated down. `ETag` and `Content-Length` are the translated body's (the caching step tags
 * it). An answer that does not match the root's document is a 502 problem naming the operation,
 * never a half-translated body. The schema is the exact status's, else its range's (`2XX`), else
 * `default`'s; a JSON success with none is refused too. A problem or a non-JSON answer passes as it is.
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
  const headers: Headers = { ...options.headers };
  let body: Buffer | undefined;
  const source = request.body as Readable | undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD' && source) {
    const read = await readAll(source, request.routeOptions.bodyLimit ?? 1024 * 1024);
    if (!read)
      return sendProblem(
        reply,
        new VersionaryError({ code: ErrorCode.PayloadTooLarge, detail: 'The request body is over the size limit.' }),
      );
    body = read;
    if (operation.body && body.length > 0) {
      const type = String(headers['content-type'] ?? '');
      const up = upBody({ reply, route, operation, schema: operation.body, body, type });
      if (!up) return;
      body = up;
    }
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  // The root's path, and its media type: the upstream serves the root version only.
  const accept = headers.accept;
  if (typeof accept === 'string' && accept.includes(`vnd.${options.vendor}.${route.self.name}`))
    headers.accept = accept
      .split(`vnd.${options.vendor}.${route.self.name}`)
      .join(`vnd.${options.vendor}.${route.root.name}`);
  const path = route.rootBase + options.url.slice(options.routed.length);
  const answer = await options.pool.request({
    method: request.method as Dispatcher.HttpMethod,
    path,
    headers: headers as Record<string, string>,
    body: body ?? null,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > answerLimit) {
      answer.body.destroy();
      return untranslatable(reply, { operation: name, version: route.self.name, why: 'its body is over 8 MiB' });
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  const upstream = answer.headers as Headers;
  const type = String(upstream['content-type'] ?? '');
  const schema = responseSchema(route, operation, answer.statusCode);
  let payload: Buffer | string = raw;
  const json = jsonMediaType.test(type) && request.method !== 'HEAD';
  // A success in JSON that the newer document gives no schema for cannot be translated: refused,
  // never passed on in the newer version's shape.
  if (!schema && json && answer.statusCode >= 200 && answer.statusCode < 300 && raw.length > 0)
    return untranslatable(reply, {
      operation: name,
      version: route.self.name,
      why: `${route.root.name}'s document gives no schema for status ${answer.statusCode}`,
    });
  if (schema && json) {
    const down = downBody({ reply, route, operation, schema, raw, checks: options.checks });
    if (down === undefined) return;
    payload = down;
    delete upstream.etag;
  }
  // Links the upstream wrote point into the root version; the client stays in its own.
  for (const name of ['location', 'link', 'content-location']) {
    const value = upstream[name];
    if (typeof value === 'string') upstream[name] = value.split(`${route.rootBase}/`).join(`${options.routed}/`);
    else if (Array.isArray(value))
      upstream[name] = value.map((v) => v.split(`${route.rootBase}/`).join(`${options.routed}/`));
  }
  delete upstream['content-length'];
  delete upstream['transfer-encoding'];
  setResponseHeaders(upstream, reply);
  reply.code(answer.statusCode).send(payload);
}

/** The schema of an answer: by its exact status, else its range (`2XX`), else `default`, as OpenAPI reads them. */
function responseSchema(route: DerivedVersionRoute, operation: OperationSpec, status: number): string | undefined {
  const exact = operation.responses[status]?.schema;
  if (exact || operation.responses[status]) return exact;
  const ranges = route.ranges?.[operation.id];
  return ranges?.[`${Math.floor(status / 100)}XX`] ?? ranges?.DEFAULT;
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
