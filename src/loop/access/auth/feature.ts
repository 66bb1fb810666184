import type { FastifyRequest } from 'fastify';
import { createApiScope } from '../../../http/api-scope.ts';
import { provideSteps } from '../../../http/pipeline/listed-steps.ts';
import type { ServiceFeature } from '../../host/feature.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { handAccessRefusals } from '../../lifecycle/decision-table/context-tables.ts';
import type { LoopAccessOptions } from '../options.ts';
import { rateLimitSection } from '../rate-limit/settings.ts';
import type { AccessRefusals } from '../../lifecycle/decision-table/compile.ts';
import { rateLimitedProblem, ratePoliciesOf } from '../rate-limit/policy.ts';
import type { RateLimitSettings } from '../rate-limit/settings.ts';
import { idempotencyKey } from '../idempotency/install-idempotency.ts';
import { addressRateLimitKey, rateLimitKey } from '../rate-limit/install-rate-limit.ts';
import { createMemoryRateLimitStore } from '../../../kernel/rate-limit/memory-store.ts';
import { createApiKey } from './api-keys.ts';
import {
  authenticationKey,
  authorizationKey,
  credentialsMissingProblem,
  credentialsUnavailableProblem,
  repeatedCredentialProblem,
} from './authenticate.ts';
import { createJwtVerifier, type JwtVerifier } from './jwt.ts';
import { createApiKeyCache } from './key-cache.ts';

/** What the access part's features are installed with: the lifecycle's context and this part's options. */
export type AccessContext = LifecycleContext & { options: LoopAccessOptions };

/**
 * Who is calling and what they may do, in the order a request meets them: the per-address rate
 * limit (before any database read), authentication, the per-client rate limit (failed credentials
 * count per address), the role check, idempotency of writes; and the first admin key.
 */
export const accessFeature: ServiceFeature<AccessContext> = {
  name: 'access',
  async install(context) {
    const { app, config, storage, clock, ops, options, requiredRole, api } = context;
    let jwt: JwtVerifier | undefined;
    if (config.jwt) {
      const verify = await createJwtVerifier(config.jwt, () => clock.now());
      const allowed = options.jwtRoles;
      // The gateway's tokens come from the upstream's identity provider: their `scope` may name
      // `admin` for the upstream's own purposes, which is no grant on Versionary's management API.
      jwt = allowed
        ? async (token) => {
            const principal = await verify(token);
            return { ...principal, roles: new Set([...principal.roles].filter((role) => allowed.includes(role))) };
          }
        : verify;
    }
    const limits = {
      settings: rateLimitSection.of(config),
      store: options.rateLimitStore ?? createMemoryRateLimitStore(),
      clock,
      scope: createApiScope(api.prefix),
    };
    handAccessRefusals(context, accessRefusals(limits.settings));
    const keyCache = createApiKeyCache({ feed: ops.changeFeed, now: () => clock.now() });
    app.addHook('onClose', async () => keyCache.close());
    const authentication = {
      apiKeys: storage.apiKeys,
      keyCache,
      ...(jwt ? { jwt } : {}),
      ...(config.adminKey ? { adminKey: config.adminKey } : {}),
      ...(options.identify ? { identify: options.identify } : {}),
    };
    // The rate limits' steps run in the context of the API's prefix; the others in the first one.
    provideSteps({ app, prefix: limits.scope.prefix }, [
      [addressRateLimitKey, limits],
      [rateLimitKey, limits],
    ]);
    provideSteps(app, [
      [authenticationKey, authentication],
      [authorizationKey, { requirement: requiredRole }],
    ]);
    const idempotency = {
      store: storage.idempotency,
      clock,
      applies: (r: FastifyRequest) => r.method === 'POST' && requiredRole(r) === 'write',
    };
    if (options.idempotency !== false) provideSteps(app, [[idempotencyKey, idempotency]]);
    if (!config.adminKey && (await storage.apiKeys.countActiveAdmins()) === 0) {
      const { key } = await createApiKey({
        store: storage.apiKeys,
        name: 'bootstrap admin',
        roles: ['admin'],
        now: clock.now(),
      });
      options.onBootstrapKey?.(key);
    }
  },
};

/**
 * What this part refuses in front of the lifecycle, as the decision table tells it to data planes
 * that cannot run core (nginx): the rate policies of `settings` with each one's 429, and the
 * credentials' problems; `{…}` marks what the data plane fills in from the request.
 */
function accessRefusals(settings: RateLimitSettings): AccessRefusals {
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
