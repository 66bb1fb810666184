import { createApiScope } from '../../../http/api-scope.ts';
import type { ServiceFeature } from '../../host/feature.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { handAccessRefusals } from '../../lifecycle/decision-table/context-tables.ts';
import type { LoopAccessOptions } from '../options.ts';
import { rateLimitSection } from '../rate-limit/settings.ts';
import { accessRefusals } from '../table-refusals.ts';
import { installIdempotency } from '../idempotency/install-idempotency.ts';
import { createMemoryRateLimitStore, installAddressRateLimit, installRateLimit } from '../rate-limit/index.ts';
import { createApiKey } from './api-keys.ts';
import { installAuthentication, installAuthorization } from './authenticate.ts';
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
    installAddressRateLimit(app, limits);
    handAccessRefusals(context, accessRefusals(limits.settings));
    installAuthentication(app, {
      apiKeys: storage.apiKeys,
      keyCache: createApiKeyCache({ feed: ops.changeFeed, now: () => clock.now() }),
      ...(jwt ? { jwt } : {}),
      ...(config.adminKey ? { adminKey: config.adminKey } : {}),
      ...(options.identify ? { identify: options.identify } : {}),
    });
    installRateLimit(app, limits);
    installAuthorization(app, { requirement: requiredRole });
    if (options.idempotency !== false)
      installIdempotency(app, {
        store: storage.idempotency,
        clock,
        applies: (r) => r.method === 'POST' && requiredRole(r) === 'write',
      });
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
