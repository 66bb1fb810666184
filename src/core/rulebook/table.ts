/**
 * The decision table: every request rule's data, compiled by the loop from live lifecycle state
 * and read by every data plane (Fastify, `versionary gateway`, nginx). Plain JSON: instants are
 * epoch milliseconds, header names are lower-case, every text is rendered by core. A data plane
 * only looks rows up and compares instants; see `docs/decision-table.md`.
 */

import type { VersionaryError } from '../errors/index.ts';

/** The one format this file describes; a data plane refuses a table of another format. */
export const decisionTableFormat = 1;

/** The compiled table, one per lifecycle generation. */
export interface DecisionTable {
  format: typeof decisionTableFormat;
  /** The lifecycle generation it was compiled from: the ETag of `GET /admin/v1/decision-table`. */
  generation: number;
  compiledAt: number;
  /** When to compile again though the generation has not moved (a closing fixes its allowed clients). */
  recompileAt: number | null;
  /** Where the API lives, `/api`: versions are `<prefix>/<version>/...`. */
  prefix: string;
  /** The `Accept` vendor: `application/vnd.<vendor>.<version>+json` selects a version. */
  vendor: string;
  /** Every version the API knows (with or without code), oldest first. */
  versions: string[];
  /** `api-supported-versions` and `api-deprecated-versions`, sent on every answer under the prefix. */
  listHeaders: Segmented<HeaderSegment>;
  /** The version as a whole: what answers a path under the version that has no route. */
  versionRows: Record<string, RuleRow>;
  /** Per version: its documented operations, each with its rules. */
  routes: Record<string, RouteRow[]>;
  /** Per version: its whole-version brownouts, which also reach a path with no route. */
  versionBrownouts?: Record<string, BrownoutRow[]>;
  /**
   * The versions that forward paths no route matches (a gateway's `forwardUndocumented`); any other
   * version answers such a path `not-documented` (404) once its rules allow the request.
   */
  forwardUndocumented?: string[];
  /** Rate-limit policies: the limit of a request is its principal's (see `ratePolicyOf`). */
  policies: RatePolicies;
  /** Client id → the oldest version it may call; absent in a table compiled before the rule. */
  minimumVersions?: Record<string, MinimumVersionRow>;
  /** Every refusal by key: named for a data plane's own steps (`version-missing`), `p<n>` for rows' (docs/decision-table.md). */
  problems: Record<string, ProblemRow>;
}

/** Time-ordered segments: the one in force is the last whose `from` is at or before now. */
export type Segmented<S extends { from: number }> = S[];

/** Headers in force from an instant. */
export interface HeaderSegment {
  from: number;
  headers: Record<string, string>;
}

/** One documented operation of a version. */
export interface RouteRow {
  /** Upper-case; HEAD is judged as GET, so there is no HEAD row. */
  method: string;
  /** The route template below the version: `/users/{id}`. */
  template: string;
  row: RuleRow;
  /** Deprecated query parameters and body fields of the operation. */
  elements: ElementRow[];
  /** Brownout windows that reach this operation, in the order planned (the first in force answers). */
  brownouts: BrownoutRow[];
}

/** The lifecycle of one subject (a version, or an operation within one). */
export interface RuleRow {
  /** Never empty; the first segment's `from` is 0. */
  segments: Segmented<RuleSegment>;
  /** Clients with extended access: their own segments replace `segments` for them. */
  extendedAccess?: Record<string, ClientRow>;
  /** Closings to new clients: from `at`, a client not in `allowed` is refused with `problem`. */
  closings?: Closing[];
  /** Whether calls are deprecated-version usage worth recording (the subject has a schedule). */
  deprecated: boolean;
}

/** What a subject answers from `from` on. */
export interface RuleSegment {
  from: number;
  outcome: 'allow' | 'refuse';
  /** Sent on the answer, whether allowed or refused. May hold `{days}` (see `daysTo`). */
  headers: Record<string, string>;
  /** Key into `problems` when the outcome is `refuse`. */
  problem?: string;
  /** When set, `{days}` in a header value is `floor((daysTo - now) / 86400000)`. */
  daysTo?: number;
}

/** One client's own view of a subject (extended access past the public sunset, within its cap). */
export interface ClientRow {
  /** The client's own date: its access ends after it. */
  until: number;
  segments: Segmented<RuleSegment>;
}

/** A closing to new clients of a version or operation (or element). */
export interface Closing {
  at: number;
  /** Clients that had called the subject before `at`: fixed once `at` has passed (sorted). */
  allowed: string[];
  /** Key into `problems`: the 403. */
  problem: string;
}

/** A deprecated query parameter or body field of one operation. */
export interface ElementRow {
  /** `User.nickname`, `GET /users?order`: the name it is shown and counted under. */
  name: string;
  kind: 'parameter' | 'field';
  /** The query parameter's name, lower-case (for `kind: 'parameter'`). */
  parameter?: string;
  /** The body property (for `kind: 'field'`). */
  field?: string;
  /** Replaces the operation's segments when the element is used (its headers merged with the operation's). */
  segments: Segmented<RuleSegment>;
  extendedAccess?: Record<string, ClientRow>;
  closings?: Closing[];
}

/** A brownout window: inside `[startsAt, endsAt)` the operation answers `problem`. */
export interface BrownoutRow {
  id: string;
  startsAt: number;
  endsAt: number;
  /** Only these clients are refused; absent: every client and unauthenticated calls. */
  clients?: string[];
  /** Key into `problems`; its `retry-after` is `ceil((endsAt - now) / 1000)`, at least 1. */
  problem: string;
  /** Clients spared (extended access whose date is after the window's start): client → their date. */
  spared?: Record<string, number>;
}

/** A client's minimum version: the versions before `version` (in `versions`' order) refuse it. */
export interface MinimumVersionRow {
  version: string;
  /** Key into `problems`: the 410 naming `version`, with its `link` to it. */
  problem: string;
}

/** The rate-limit policies per role. */
export interface RatePolicies {
  /** Absent when rate limiting is off. */
  base?: RatePolicy;
  /** Role → its own limit; a principal gets the most generous of its roles' (a role without one counts as base). */
  roles: Record<string, RatePolicy>;
}

/** One rate-limit policy, with its `RateLimit-Policy` field pre-rendered. */
export interface RatePolicy {
  name: string;
  max: number;
  windowSeconds: number;
  /** The `ratelimit-policy` header value: `"default";q=100;w=60`. */
  policyField: string;
}

/** A refusal, rendered: the data plane adds `instance` (the request path) to the body. */
export interface ProblemRow {
  status: number;
  /** Sent with it (besides `content-type: application/problem+json`). */
  headers: Record<string, string>;
  /** The RFC 9457 body: `type`, `title`, `status`, `detail`, `code` and the extensions. */
  body: Record<string, unknown> & { type: string; title: string; status: number; detail: string; code: string };
}

/** What every data plane knows of a request before it decides (see `docs/decision-table.md`). */
export interface RequestFacts {
  /** As received; rules judge HEAD as GET. */
  method: string;
  /** The canonical path (`canonicalPath`), without the query. */
  path: string;
  /** The version the request asked for (from the path or `Accept`); absent when unversioned. */
  version?: string;
  versionSource?: 'path' | 'accept';
  /** The matched operation's template below the version (`/users/{id}`); absent with no route. */
  template?: string;
  /** The methods the path's route declares (see `methodsAt`); absent when the data plane routes no such path. */
  methods?: readonly string[];
  /** The authenticated caller, or absent. */
  principal?: { client: string; roles: readonly string[] };
  now: number;
  /** Query parameter names present, lower-case (absent when none). */
  parameters?: readonly string[];
  /** Deprecated body fields the request used, by element name (`User.nickname`). */
  fields?: readonly string[];
}

/** Why a rule refused (or let through past a removal): the same names as the traces'. */
export type DecisionRule =
  | 'version'
  | 'minimum_version'
  | 'removed'
  | 'method'
  | 'brownout'
  | 'closed_to_new_clients'
  | 'element_removed'
  | 'extended_access';

/** A rule's answer: let the request through with headers, or refuse it with a problem. */
export type Decision = { headers: Record<string, string>; deprecated: boolean } & (
  { outcome: 'allow'; rule?: DecisionRule } | { outcome: 'refuse'; problem: ProblemRow; rule: DecisionRule }
);

/** Where a data plane that runs core reads its table, and the error each problem was rendered from. */
export interface DecisionTableSource {
  /** The table in force, when it is current without compiling (nearly always): no request awaits it. */
  latest(): DecisionTable | undefined;
  /** The table in force, compiled first when state moved since the last one. */
  current(): Promise<DecisionTable>;
  /** The error a table's problem was rendered from: what a Fastify data plane throws to answer it. */
  errorOf(problem: ProblemRow): VersionaryError | undefined;
}
