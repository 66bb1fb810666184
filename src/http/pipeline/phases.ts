/**
 * The phases of a request, in the order they run. Every per-request rule is one step in one of
 * them (`request-pipeline.ts`); within a phase, steps run in the order they were added.
 *
 * - `gate`: refusals that need no credential and no storage: ambiguous targets and framings,
 *   removed versions (the spec's 410 before anything else), the per-address limit of anonymous
 *   traffic, and the headers every answer carries (security, version lists).
 * - `identify`: who is calling (keys, JWTs, the app's own `identify`).
 * - `limit`: the per-client rate limit.
 * - `authorize`: the role the route needs.
 * - `check`: what the request must satisfy before its version runs (bounded conditional headers).
 *
 * The version (negotiation), lifecycle (deprecation headers, usage, brownouts) and handler then
 * run per route, compiled when the route is registered; `respond` steps run once, in `onSend`.
 */
export const requestPhases = ['gate', 'identify', 'limit', 'authorize', 'check'] as const;

/** A phase of {@link requestPhases}. */
export type RequestPhase = (typeof requestPhases)[number];
