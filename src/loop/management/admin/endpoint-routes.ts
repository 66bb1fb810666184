import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { checkNoticePeriod, MONTH_MS } from '../../../core/lifecycle/index.ts';
import { isoDeprecationDates } from './deprecation-list.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { LifecycleStore } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { LifecycleSettings } from '../../lifecycle/settings.ts';
import { assertMigrationUrl } from '../../lifecycle/migration-url.ts';
import { deprecateEndpointSchema } from './admin-schemas.ts';
import { assertNotRemoved } from './version-routes.ts';
import { lifecycleDatesOf } from './lifecycle-dates.ts';

/** `POST /admin/v1/deprecations`: deprecate one endpoint of a version, leaving the rest active. */
export function registerEndpointAdminRoutes(
  app: FastifyInstance,
  options: {
    bundle: VersionBundle;
    runtime: LifecycleRuntime;
    lifecycle: LifecycleStore;
    settings: LifecycleSettings;
    clock: Clock;
  },
): void {
  app.post('/deprecations', { schema: deprecateEndpointSchema }, async (request, reply) => {
    const input = request.body as Static<typeof deprecateEndpointSchema.body>;
    const method = input.method.toUpperCase();
    assertMigrationUrl(input.migrationUrl, '/body/migrationUrl');
    const version = options.bundle.get(input.version);
    if (options.runtime.versions().some((v) => v.name === input.version))
      assertNotRemoved(options.runtime, input.version);
    if (!version || !version.operations.some((o) => o.method === method && o.path === input.path)) {
      throw new VersionaryError({
        code: ErrorCode.NotFound,
        detail: `${input.version} has no endpoint ${method} ${input.path}.`,
      });
    }
    const now = options.clock.now();
    const sunsetAt =
      input.sunsetAt !== undefined ? parseIsoInstant(input.sunsetAt) : now + (input.noticeMonths ?? 6) * MONTH_MS;
    if (sunsetAt === undefined)
      throw new VersionaryError({
        code: ErrorCode.ValidationFailed,
        detail: 'sunsetAt must be an ISO 8601 date.',
        errors: [{ pointer: '/body/sunsetAt', detail: 'not an ISO 8601 date' }],
      });
    if (sunsetAt <= now)
      throw new VersionaryError({
        code: ErrorCode.InvalidSchedule,
        detail: `sunset-order: the sunset (${formatIsoInstant(sunsetAt)}) must come after the deprecation (${formatIsoInstant(now)}).`,
        extensions: { rule: 'sunset-order' },
      });
    // The same notice-period rule as version deprecations, named after the endpoint.
    const violation = checkNoticePeriod({
      audience: options.settings.audience,
      schedule: {
        version: `${method} ${input.path} in ${input.version}`,
        deprecatedAt: now,
        sunsetAt,
        removed: false,
        reason: input.reason === 'critical-fix' ? 'critical-fix' : 'planned',
      },
    });
    if (violation) throw violation;
    const dates = lifecycleDatesOf(input, { sunsetAt, deprecatedAt: now, now });
    const saved = {
      version: input.version,
      method,
      path: input.path,
      deprecatedAt: now,
      sunsetAt,
      migrationUrl: input.migrationUrl ?? null,
      ...dates,
    };
    await options.lifecycle.saveEndpointDeprecation(saved);
    await options.runtime.refresh();
    return reply.code(201).send({ ...saved, ...isoDeprecationDates(saved) });
  });
}
