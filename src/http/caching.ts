import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { stateOf } from './pipeline/request-state.ts';

/** The longest `If-None-Match` or `If-Match` value accepted; the served documents state it as `maxLength`. */
export const conditionalHeaderMaxLength = 4000;

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** A strong entity tag from the bytes of a representation. */
export function contentTag(payload: string | Buffer): string {
  return `"c-${hash('sha1', payload, 'base64url').slice(0, 22)}"`;
}

export interface CachingOptions {
  /** Requests whose answers depend on credentials: their successful GETs are `no-store` too. */
  isPrivate?: (request: FastifyRequest) => boolean;
}

/** Successful GETs are `private, no-cache` (or `no-store`) with an ETag; writes and errors `no-store`. */
export const cachingKey = stepKey<CachingOptions>('caching');

export const conditionalHeaderLengthStep = defineStep({
  needs: cachingKey,
  phase: 'check',
  name: 'conditional-header-length',
  thin: true,
  create: () => refuseLongConditionals,
});

export const cachingResponseStep = defineStep({
  needs: cachingKey,
  phase: 'respond',
  name: 'caching',
  thin: true,
  create: (options) => (request, reply, payload) => {
    const safe = request.method === 'GET' || request.method === 'HEAD';
    if (!safe || reply.statusCode !== 200) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    }
    if (!reply.hasHeader('cache-control'))
      reply.header('cache-control', options.isPrivate?.(request) ? 'no-store' : 'private, no-cache');
    let etag = reply.getHeader('etag') as string | undefined;
    // A forwarded answer keeps the upstream's validators: the gateway adds none of its own.
    if (!etag && (typeof payload === 'string' || Buffer.isBuffer(payload)) && !stateOf(request).forwarded) {
      etag = contentTag(payload);
      reply.header('etag', etag);
    }
    if (etag && etagMatches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  },
});

// A tag list longer than any real one is refused, as documented, rather than scanned on every request.
function refuseLongConditionals(request: FastifyRequest): void {
  for (const name of ['if-none-match', 'if-match'] as const) {
    const value = request.headers[name];
    if (value === undefined || value.length <= conditionalHeaderMaxLength) continue;
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `${name === 'if-match' ? 'If-Match' : 'If-None-Match'} is ${value.length} characters long; at most ${conditionalHeaderMaxLength} are accepted.`,
      errors: [{ pointer: `/headers/${name}`, detail: `longer than ${conditionalHeaderMaxLength} characters` }],
    });
  }
}
