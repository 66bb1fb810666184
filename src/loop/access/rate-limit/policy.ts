import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { Role } from '../../../kernel/ports/principal.ts';
import { ratePolicyOf, type RatePolicies, type RatePolicy } from '../../../core/rulebook/index.ts';
import type { RateLimitSettings } from './settings.ts';

/** The quota policy that applies to one client. */
export interface AppliedPolicy {
  /** `default`, or the role whose override won: the policy's name in the RateLimit fields. */
  name: string;
  max: number;
  windowSeconds: number;
}

/**
 * The rate-limit policies of the settings, as the decision table carries them: the base and each
 * role's override, with its `RateLimit-Policy` field.
 */
export function ratePoliciesOf(settings: RateLimitSettings): RatePolicies & { base: RatePolicy } {
  const policy = (name: string, max: number): RatePolicy => {
    const applied = { name, max, windowSeconds: settings.windowSeconds };
    return { ...applied, policyField: policyHeadersOf(applied).policyField };
  };
  const roles: RatePolicies['roles'] = {};
  for (const [role, limit] of Object.entries(settings.roles)) if (limit) roles[role] = policy(role, limit.max);
  return { base: policy('default', settings.max), roles };
}

/**
 * The policy of a principal with these roles: core's `ratePolicyOf`, the rule every data plane
 * applies (the most generous of its roles' limits, a role without one counting as the base).
 */
export function policyFor(options: { settings: RateLimitSettings; roles: Iterable<Role> | undefined }): AppliedPolicy {
  const policies = ratePoliciesOf(options.settings);
  const roles = options.roles === undefined ? undefined : [...options.roles];
  const facts = roles === undefined ? {} : { principal: { client: '', roles } };
  return ratePolicyOf(facts, { policies }) ?? policies.base;
}

/**
 * {@link policyFor}, remembered per set of roles: a principal keeps its `roles` set for as long as
 * it is cached, so a request asks a WeakMap instead of building arrays and objects. Settings are
 * fixed for the life of the app, so the answers never go stale.
 */
export function createPolicyLookup(
  settings: RateLimitSettings,
): (roles: ReadonlySet<Role> | undefined) => AppliedPolicy {
  const anonymous = policyFor({ settings, roles: undefined });
  const known = new WeakMap<ReadonlySet<Role>, AppliedPolicy>();
  return (roles) => {
    if (!roles) return anonymous;
    let policy = known.get(roles);
    if (!policy) {
      policy = policyFor({ settings, roles });
      known.set(roles, policy);
    }
    return policy;
  };
}

/** A policy with its field strings, built once: what the limiter keeps per principal. */
export interface PolicyHeaders {
  policy: AppliedPolicy;
  /** The policy's name as an sf-string (`"default"`), the head of the `RateLimit` field. */
  name: string;
  /** The whole `RateLimit-Policy` field, which never changes for a policy. */
  policyField: string;
}

/** The strings of {@link rateLimitFields} that do not change from one request to the next. */
export function policyHeadersOf(policy: AppliedPolicy): PolicyHeaders {
  let headers = policyHeaders.get(policy);
  if (headers === undefined) {
    // Role names and 'default' are plain ASCII, so they need no sf-string escaping.
    const name = `"${policy.name}"`;
    headers = { policy, name, policyField: `${name};q=${policy.max};w=${policy.windowSeconds}` };
    policyHeaders.set(policy, headers);
  }
  return headers;
}

/** A policy's field strings never change: built once per policy object. */
const policyHeaders = new WeakMap<AppliedPolicy, PolicyHeaders>();

/**
 * The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers (-10/-11):
 * each a Structured Field list of one Item whose value is the policy name as an sf-string, with
 * `q` (quota) and `w` (window, seconds) on the policy and `r` (remaining) and `t` (seconds until
 * reset) on the current state.
 */
export function rateLimitFields(options: {
  policy: AppliedPolicy;
  remaining: number;
  resetSeconds: number | string;
}): Record<'ratelimit-policy' | 'ratelimit', string> {
  const { name, policyField } = policyHeadersOf(options.policy);
  return { 'ratelimit-policy': policyField, ratelimit: `${name};r=${options.remaining};t=${options.resetSeconds}` };
}

/**
 * The 429 of a client over its policy, with the RateLimit fields and `Retry-After`. `resetSeconds`
 * may be a placeholder (`{seconds}`): the decision table renders it once per policy for nginx.
 */
export function rateLimitedProblem(o: {
  policy: AppliedPolicy;
  remaining: number;
  resetSeconds: number | string;
}): VersionaryError {
  const { policy, resetSeconds } = o;
  return new VersionaryError({
    code: ErrorCode.RateLimited,
    detail: `This client may make ${policy.max} requests per ${policy.windowSeconds} seconds; retry in ${resetSeconds} seconds.`,
    headers: { ...rateLimitFields(o), 'retry-after': String(resetSeconds) },
  });
}
