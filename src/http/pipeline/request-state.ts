import type { FastifyRequest } from 'fastify';
import type { VersionaryError } from '../../core/errors/index.ts';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';

/** A rule that answered instead of the handler, or (`extended_access`) let a removed call through. */
export type RuleDecision = 'removed' | 'brownout' | 'closed_to_new_clients' | 'rate_limited' | 'extended_access';

/** What the steps of one request tell each other (`versionaryState`); layers above use {@link stateKey}. */
export interface RequestState {
  /** Credentials that failed, kept for the `authorize` step (a rate limit counts them first). */
  authFailure?: VersionaryError;
  /** The per-address limit has counted this request already. */
  counted?: boolean;
  /** The request addressed the API without a version in its path (the `negotiation` step). */
  unversioned?: boolean;
  /** `Accept` chose the version: the URL was rewritten to it, and the answer varies by `Accept`. */
  versionFromAccept?: boolean;
  /** The answer carries the lifecycle's `Deprecation` header (the lifecycle steps), for metrics. */
  deprecated?: boolean;
  /** The lifecycle refused the call, whatever the status: it is not counted as usage. */
  refused?: boolean;
  /** The rate-limit policy that refused the request with a 429 (its name), for metrics. */
  rateLimitPolicy?: string;
  /** The rule that answered this request, or let it through past a removal, for traces. */
  decision?: RuleDecision;
  /** The lifecycle's verdict the lifecycle step applied (this client's own, when it has one). */
  lifecycleVerdict?: LifecycleVerdict;
  /** The deprecated fields and parameters the call used (`User.nickname`), for traces. */
  deprecatedElements?: readonly string[];
  /** A removal some client is served past, left by the removed gate until the caller is known. */
  pendingRemoval?: { headers: Record<string, string>; error: VersionaryError };
  /** The matched route's pattern (`null` when none matched), read once (`routeUrlOf`). */
  routeUrl?: string | null;
  /** The lifecycle's verdict on this request's endpoint, as the removed gate asked it. */
  verdict?: { method: string; path: string; verdict: LifecycleVerdict };
  /** The lifecycle step judged this request (for its client): its headers, or none, are final. */
  lifecycleJudged?: boolean;
  /** The answer is the upstream's, passed through: no entity tag of the gateway's own is added. */
  forwarded?: boolean;
}

type WithState = FastifyRequest & { versionaryState?: RequestState | null };

/** The request's state, made on first use. */
export function stateOf(request: FastifyRequest): RequestState {
  return ((request as WithState).versionaryState ??= {});
}

/** A typed slot of the request state, for a member of a layer above http (`principal`, `usage`). */
export interface StateKey<T> {
  readonly name: string;
  /** The slot's value; `undefined` when unset. Makes no state. */
  get(request: FastifyRequest): T | undefined;
  set(request: FastifyRequest, value: T | undefined): void;
}

const slotNames = new Set<string>();

/** A typed slot of the request state, made by the module that owns the member (no declaration merging). */
export function stateKey<T>(name: string): StateKey<T> {
  // A plain member, seen in a debugger and a log as the others are; `slot:` keeps it apart from
  // the members of `RequestState`, and one name is one slot.
  const member = `slot:${name}`;
  if (slotNames.has(member)) throw new Error(`The request state already has a slot named ${name}.`);
  slotNames.add(member);
  type Slotted = { versionaryState?: Record<string, T | undefined> | null };
  return {
    name,
    get: (request) => (request as unknown as Slotted).versionaryState?.[member],
    set: (request, value) => void ((stateOf(request) as Record<string, T | undefined>)[member] = value),
  };
}

/** Whether a block of headers (`Deprecation` or `deprecation`) says the call is deprecated. */
export function hasDeprecation(headers: Readonly<Record<string, unknown>>): boolean {
  for (const name in headers) if (name.length === 11 && name.toLowerCase() === 'deprecation') return true;
  return false;
}
