import type { FastifyReply } from 'fastify';
import type { Dispatcher } from 'undici';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { OperationSpec } from '../core/versions/index.ts';
import { contentTag } from './caching.ts';
import { downBody, jsonMediaType, responseSchema } from './derived-bodies.ts';
import type { DerivedVersionRoute } from './forward-options.ts';
import type { Headers } from './forward-headers.ts';
import { sendProblem } from './problem.ts';
import type { createResponseChecks } from './response-check.ts';
import { callWhole } from './upstream-call.ts';

/** The current representation is read whole to be tagged; a larger one cannot be judged. */
const readLimit = 8 * 1024 * 1024;

/**
 * A call's `If-Match` (and a write's `If-None-Match`) in the derived version's terms. They name
 * tags of translated bodies, which the upstream never gave (passed on, every conditional write
 * would be a 412): the gateway reads the resource as the derived version's GET gives it, judges
 * the conditions on its tag, and sends the 412 itself. Otherwise the call goes up with the
 * upstream's own tag of what was read in `If-Match`, so a change in between is still refused.
 * A `*` alone passes as it is. Answers the headers to send, or undefined once an answer was sent.
 */
export async function judgeConditions(at: {
  reply: FastifyReply;
  route: DerivedVersionRoute;
  operation: OperationSpec;
  pool: Dispatcher;
  /** The resource's path at the upstream (`/api/v2/users/1`). */
  path: string;
  headers: Headers;
  checks: ReturnType<typeof createResponseChecks>;
}): Promise<Headers | undefined> {
  const { route, operation, headers } = at;
  const ifMatch = tagsOf(headers['if-match']);
  const ifNoneMatch = tagsOf(headers['if-none-match']);
  const judged = (tags: string[] | undefined) => tags !== undefined && !(tags.length === 1 && tags[0] === '*');
  if (!judged(ifMatch) && !judged(ifNoneMatch)) return headers;
  const read = route.self.operations.find((op) => op.method === 'GET' && op.path === operation.path);
  // Nothing the derived version reads there: its clients hold no tag of it to send.
  if (!read) return headers;
  const current = await currentTags({ ...at, read });
  if (current === undefined) return undefined;
  const matches = (tags: string[], weak: boolean) =>
    current.tag !== undefined && tags.some((t) => t === '*' || t === current.tag || (weak && t === `W/${current.tag}`));
  // If-Match compares strongly, If-None-Match weakly (RFC 9110, 13.1.1 and 13.1.2).
  if ((ifMatch && !matches(ifMatch, false)) || (ifNoneMatch && matches(ifNoneMatch, true))) {
    sendProblem(
      at.reply,
      new VersionaryError({
        code: ErrorCode.PreconditionFailed,
        detail: `The ${ifMatch ? 'If-Match' : 'If-None-Match'} condition does not hold for the ${route.self.name} representation of this resource.`,
      }),
    );
    return undefined;
  }
  const out: Headers = { ...headers };
  delete out['if-match'];
  delete out['if-none-match'];
  if (ifMatch && current.upstream !== undefined) out['if-match'] = current.upstream;
  return out;
}

/** The derived version's tag of the resource as it is (none but for a 200) and the upstream's; undefined once a problem was sent. */
async function currentTags(
  at: Omit<Parameters<typeof judgeConditions>[0], 'operation'> & { read: OperationSpec },
): Promise<{ tag?: string; upstream?: string } | undefined> {
  const headers: Headers = { ...at.headers };
  for (const name of ['if-match', 'if-none-match', 'content-type', 'content-length', 'transfer-encoding'])
    delete headers[name];
  const answer = await callWhole(at.pool, { method: 'GET', path: at.path, headers, body: null, limit: readLimit });
  if ('tooLarge' in answer) return {};
  const schema = responseSchema(at.route, at.read, answer.statusCode);
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.statusCode !== 200 || !schema || !jsonMediaType.test(type)) return {};
  const raw = answer.body;
  const body = downBody(at.reply, { route: at.route, operation: at.read, schema, raw, checks: at.checks });
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
