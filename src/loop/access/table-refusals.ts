import type { AccessRefusals } from '../lifecycle/decision-table/compile.ts';
import {
  credentialsMissingProblem,
  credentialsUnavailableProblem,
  repeatedCredentialProblem,
} from './auth/authenticate.ts';
import { rateLimitedProblem, ratePoliciesOf } from './rate-limit/policy.ts';
import type { RateLimitSettings } from './rate-limit/settings.ts';

/**
 * What this part refuses in front of the lifecycle, as the decision table tells it to data planes
 * that cannot run core (nginx): the rate policies of `settings` with each one's 429, and the
 * credentials' problems; `{…}` marks what the data plane fills in from the request.
 */
export function accessRefusals(settings: RateLimitSettings): AccessRefusals {
  const policies = settings.enabled ? ratePoliciesOf(settings) : { roles: {} };
  const all = 'base' in policies ? [policies.base, ...Object.values(policies.roles)] : [];
  return {
    policies,
    credentials: [
      { key: 'credentials-missing', error: credentialsMissingProblem() },
      { key: 'credentials-repeated', error: repeatedCredentialProblem('x-api-key', '{count}') },
      { key: 'credentials-unavailable', error: credentialsUnavailableProblem('the control plane') },
    ],
    rateLimited: all.map((policy) => ({
      key: `rate-limited:${policy.name}`,
      error: rateLimitedProblem({ policy, remaining: 0, resetSeconds: '{seconds}' }),
    })),
  };
}
