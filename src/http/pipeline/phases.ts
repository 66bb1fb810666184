/**
 * The phases of a request, in the order they run, each in the Fastify stage that carries it.
 * Every per-request rule is one step in one of them (`request-pipeline.ts`); within a phase,
 * steps run in the order of the product's step list when one is declared, else as added.
 *
 * - `gate`: refusals that need no credential and no storage: ambiguous targets and framings,
 *   removed versions (the spec's 410 before anything else), the per-address limit of anonymous
 *   traffic, and the headers every answer carries (security, version lists).
 * - `identify`: who is calling (keys, JWTs, the app's own `identify`).
 * - `limit`: the per-client rate limit.
 * - `authorize`: the role the route needs.
 * - `check`: what the request must satisfy before its version runs (bounded conditional headers).
 * - `version`: the route's version negotiated, the call counted (a route's own steps).
 * - `lifecycle`: deprecation headers and usage of deprecated calls (a route's own steps).
 * - `body`: before the body is read (its encoding).
 * - `input`: before validation (query integers, deprecated fields and parameters, media type).
 * - `handle`: before the handler, with the body and the principal (idempotency, brownouts).
 * - `serialize`: the handler's value before it is serialised (it may be replaced).
 * - `respond`: the answer on its way out (headers, a replaced payload, lingering close).
 * - `after`: once the answer is sent (metrics, claims released); `abort` when the client left.
 */
export const requestPhases = [
  'gate',
  'identify',
  'limit',
  'authorize',
  'check',
  'version',
  'lifecycle',
  'body',
  'input',
  'handle',
  'serialize',
  'respond',
  'after',
  'abort',
] as const;

export type RequestPhase = (typeof requestPhases)[number];

export type PayloadPhase = 'serialize' | 'respond';

/** The Fastify stage of each phase: one hook per stage runs all of its phases' steps. */
export const stageOf = {
  gate: 'onRequest',
  identify: 'onRequest',
  limit: 'onRequest',
  authorize: 'onRequest',
  check: 'onRequest',
  version: 'onRequest',
  lifecycle: 'onRequest',
  body: 'preParsing',
  input: 'preValidation',
  handle: 'preHandler',
  serialize: 'preSerialization',
  respond: 'onSend',
  after: 'onResponse',
  abort: 'onRequestAbort',
} as const satisfies Record<RequestPhase, string>;

export type RequestStage = (typeof stageOf)[RequestPhase];
