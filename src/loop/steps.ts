/**
 * Every per-request step of the loop, in the order a request meets them (`phase:name`). The loop's
 * pipeline runs its steps in this order within each phase and refuses a step that is not here,
 * so this list is the whole request: a new rule is its step file plus one line in this list.
 * `docs/architecture.md`'s table is generated from what the pipeline compiles of it
 * (`npm run steps-table`).
 */
export const loopSteps: readonly string[] = [
  // onRequest: refusals that need no credential, then who is calling and what they may do.
  'gate:strict-requests',
  'gate:negotiation',
  'gate:unversioned-vary',
  'gate:version-list-headers',
  'gate:removed-gate',
  'gate:security-headers',
  'gate:address-rate-limit',
  'gate:page-rate-limit',
  'identify:authenticate',
  'limit:rate-limit',
  'limit:portal-session-budget',
  'authorize:authorize',
  'check:conditional-header-length',
  // onRequest, a version's own routes: the version and its lifecycle.
  'version:negotiate',
  'version:count-call',
  'lifecycle:lifecycle-headers',
  'lifecycle:on-versioned-request',
  'lifecycle:deprecated-elements',
  'lifecycle:method-not-allowed',
  // preParsing and preValidation: the body's encoding, then the input before validation.
  'body:identity-encoding',
  'input:query-integers',
  'input:deprecated-elements',
  'input:body-media-type',
  'input:webhook-urls',
  // preHandler: with the body and the principal.
  'handle:idempotency',
  'handle:brownout',
  // preSerialization and onSend: the answer on its way out.
  'serialize:brownout-listing',
  'respond:request-id',
  'respond:security-headers',
  'respond:caching',
  'respond:not-found-page',
  'respond:lingering-close',
  'respond:idempotency-record',
  // onResponse, or onRequestAbort when the client left.
  'after:metrics',
  'after:idempotency-release',
  'abort:idempotency-release',
];
