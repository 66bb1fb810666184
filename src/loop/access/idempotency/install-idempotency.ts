import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineStep, stepKey } from '../../../http/pipeline/step-definition.ts';
import type { RouteDescription } from '../../../http/pipeline/route-description.ts';
import { stateKey } from '../../../http/pipeline/request-state.ts';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { clientIdOf, principalOf, tenantKeyOf } from '../../../kernel/ports/principal.ts';
import type { IdempotencyStore } from '../../../kernel/ports/index.ts';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  clock: Clock;
  /** Which requests honour the header; POSTs to versioned resources in the service. */
  applies: (request: FastifyRequest) => boolean;
  /** How long a key is remembered (24 hours). */
  retentionMs?: number;
  /**
   * A claim older than this whose request never finished is taken over (the process died). Far
   * longer than any request may run, so a slow first attempt and its retry never both execute.
   */
  staleAfterMs?: number;
}

/** A key this request claimed: completed with its response, or released when it ends without one. */
interface Claim {
  clientId: string;
  key: string;
  claimedAt: number;
}

const claimSlot = stateKey<Claim>('idempotency-claim');
const replayedHeaders = ['content-type', 'location', 'etag', 'link'];

/**
 * The idempotency steps' resource: `Idempotency-Key` on POST, after the IETF httpapi
 * idempotency-key draft: a retry with the same key and body gets the first response again (with
 * `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 422; while
 * the first is still running, 409. Keys are per client and kept for 24 hours. Responses of 5xx are
 * not kept, so a retry runs again.
 */
export const idempotencyKey = stepKey<IdempotencyOptions>('idempotency');

const onPost = (route: RouteDescription) => route.method === 'POST';

/** The `handle:idempotency` step: a request with a key claims it, or gets the first response again. */
export const idempotencyStep = defineStep({
  needs: idempotencyKey,
  name: 'idempotency',
  phase: 'handle',
  // On POST routes only; a request without a key returns at once, without a promise.
  appliesTo: onPost,
  create: (options) => (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header !== undefined && options.applies(request)) return claim(options, reply, header);
  },
});

/** The `respond:idempotency-record` step: the claimed key keeps the response. */
export const idempotencyRecordStep = defineStep({
  needs: idempotencyKey,
  name: 'idempotency-record',
  phase: 'respond',
  appliesTo: onPost,
  create: (options) => (request, reply, payload) => {
    const claim = claimSlot.get(request);
    if (claim) return complete(options, claim, { reply, payload });
  },
});

// A request that ends without onSend (the client went away) releases its claim.
const releaserOf = (options: IdempotencyOptions) => (request: FastifyRequest) => {
  const claim = claimSlot.get(request);
  if (!claim) return;
  claimSlot.set(request, undefined);
  return options.store.abandon(claim);
};

// Every response passes `after`; an aborted request passes `abort` instead.
const releaseStep = (phase: 'after' | 'abort') =>
  defineStep({ needs: idempotencyKey, name: 'idempotency-release', phase, appliesTo: onPost, create: releaserOf });
export const idempotencyReleaseStep = releaseStep('after');
export const idempotencyAbortStep = releaseStep('abort');

async function claim(options: IdempotencyOptions, reply: FastifyReply, header: string | string[]): Promise<unknown> {
  const { request } = reply;
  const key = parseKey(header);
  // By client and credential: two tenants sharing a JWT subject never see each other's records.
  const principal = principalOf(request);
  const clientId = principal ? tenantKeyOf(principal) : clientIdOf(request);
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  const now = options.clock.now();
  const outcome = await options.store.begin({
    clientId,
    key,
    fingerprint,
    now,
    expiredBefore: now - (options.retentionMs ?? 24 * 3600_000),
    staleRunningBefore: now - (options.staleAfterMs ?? 10 * 60_000),
  });
  if (outcome.kind === 'started') {
    claimSlot.set(request, { clientId, key, claimedAt: now });
    return;
  }
  if (outcome.kind === 'mismatch')
    throw new VersionaryError({
      code: ErrorCode.IdempotencyMismatch,
      detail: 'This Idempotency-Key was used with a different request; use a new key for a new request.',
    });
  if (outcome.kind === 'running')
    throw new VersionaryError({
      code: ErrorCode.IdempotencyInFlight,
      detail: 'A request with this Idempotency-Key is still running; retry later.',
      headers: { 'retry-after': '1' },
    });
  const { response } = outcome;
  reply.code(response.status).headers({ ...response.headers, 'idempotent-replayed': 'true' });
  return reply.serializer(String).send(response.body);
}

async function complete(
  options: IdempotencyOptions,
  claim: Claim,
  { reply, payload }: { reply: FastifyReply; payload: unknown },
): Promise<unknown> {
  claimSlot.set(reply.request, undefined);
  if (reply.statusCode >= 500 || (typeof payload !== 'string' && payload !== undefined && payload !== null)) {
    await options.store.abandon(claim);
    return payload;
  }
  const headers: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await options.store.complete({
    ...claim,
    response: { status: reply.statusCode, headers, body: (payload as string | undefined) ?? '' },
  });
  return payload;
}

function parseKey(header: string | string[]): string {
  const raw = Array.isArray(header) ? '' : header.trim();
  const key = /^"[^"]*"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: 'Idempotency-Key must be 1 to 255 visible ASCII characters, optionally quoted.',
      errors: [{ pointer: '/headers/idempotency-key', detail: 'malformed' }],
    });
  }
  return key;
}
