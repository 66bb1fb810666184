/**
 * The phases of a request in the order they run, each in the Fastify stage that carries it. Every
 * per-request rule is one step in one of them; within a phase, steps run in the order of the
 * product's step list when one is declared, else as added.
 */
export const stageOf = {
  // Refusals that need no credential and no storage (ambiguous framings, removed versions: the
  // spec's 410 before anything else, the per-address limit) and the headers every answer carries.
  gate: 'onRequest',
  identify: 'onRequest', // who is calling (keys, JWTs, the app's own `identify`)
  limit: 'onRequest', // the per-client rate limit
  authorize: 'onRequest', // the role the route needs
  check: 'onRequest', // what the request must satisfy before its version runs
  version: 'onRequest', // the route's version negotiated, the call counted (a route's own steps)
  lifecycle: 'onRequest', // deprecation headers and usage of deprecated calls (a route's own steps)
  body: 'preParsing', // before the body is read (its encoding)
  input: 'preValidation', // query integers, deprecated fields and parameters, media type
  handle: 'preHandler', // with the body and the principal (idempotency, brownouts)
  serialize: 'preSerialization', // the handler's value, which may be replaced
  respond: 'onSend', // headers, a replaced payload, lingering close
  after: 'onResponse', // once the answer is sent (metrics, claims released)
  abort: 'onRequestAbort', // the client left
} as const;

export type RequestPhase = keyof typeof stageOf;

export const requestPhases = Object.keys(stageOf) as readonly RequestPhase[];

export type PayloadPhase = 'serialize' | 'respond';

export type RequestStage = (typeof stageOf)[RequestPhase];
