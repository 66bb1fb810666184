import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import {
  checkNoticePeriod,
  MONTH_MS,
  rescheduleDeprecation,
  scheduleDeprecation,
  type DeprecationDates,
  type DeprecationSchedule,
} from '../../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import { isoDeprecationDates } from './deprecation-list.ts';
import type { StoredSchedule } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import { lifecycleSection } from '../../lifecycle/settings.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { encodeCursor, parsePage } from '../../../kernel/app/page.ts';
import { assertMigrationUrl } from '../../lifecycle/migration-url.ts';
import { queryIntegerSteps } from '../../../http/index.ts';
import {
  deprecateEndpointSchema,
  getVersionSchema,
  listCallsSchema,
  listVersionsSchema,
  scheduleDeprecationSchema,
} from './admin-schemas.ts';

/**
 * The versioned management API for the lifecycle: `/admin/v1/versions...` and endpoint
 * deprecations (`POST /admin/v1/deprecations`, one endpoint of a version while the rest stays
 * active). Schedules are written to the store and applied to this instance at once.
 */
export function registerVersionAdminRoutes(app: FastifyInstance, context: LifecycleContext): void {
  const { runtime, clock, bundle, recorder } = context;
  const { lifecycle, usage } = context.storage;
  const { audience } = lifecycleSection.of(context.config);
  const find = (name: string) => {
    const versions = runtime.versions();
    const version = versions.find((v) => v.name === name);
    if (version) return version;
    const names = versions.map((v) => v.name).join(', ');
    throw new VersionaryError({
      code: ErrorCode.NotFound,
      detail: `No version named "${name.slice(0, 40)}". Versions: ${names}.`,
    });
  };
  // Callers flush buffered usage once before summarising, however many versions they list.
  const detail = async (name: string) => {
    const entry = runtime.document().versions.find((v) => v.name === name)!;
    const schedule = find(name).schedule;
    return { ...entry, removed: schedule?.removed ?? false, usage: await usage.summary(name) };
  };

  app.get('/versions', { schema: listVersionsSchema }, async () => {
    await recorder.flush();
    return { data: await Promise.all(runtime.versions().map((v) => detail(v.name))) };
  });
  app.get('/versions/:name', { schema: getVersionSchema }, async (request) => {
    const name = find((request.params as { name: string }).name).name;
    await recorder.flush();
    return detail(name);
  });

  app.put('/versions/:name/deprecation', { schema: scheduleDeprecationSchema }, async (request) => {
    const name = find((request.params as { name: string }).name).name;
    // Checked before anything is written: the lifecycle has no way out of Removed.
    assertNotRemoved(runtime, name);
    const body = request.body as Static<typeof scheduleDeprecationSchema.body>;
    assertMigrationUrl(body.migrationUrl, '/body/migrationUrl');
    // The timing as given (noticeMonths, deprecatedAt, sunsetAt, reason): the rest is the store's alone.
    const { migrationUrl: _url, extendedAccessUntil: _cap, closedToNewClientsAt: _closed, ...timing } = body;
    const input = { version: name, versions: runtime.versions(), clock, audience, ...timing };
    const current = runtime.scheduleOf(name);
    const schedule = current ? nextSchedule({ body, input, current }) : scheduleDeprecation(input).schedule;
    // Fields the body leaves out keep their values; the cap and the closing are checked against the new dates.
    const dates = lifecycleDatesOf(body, { ...schedule, now: clock.now(), current });
    await lifecycle.saveSchedule({
      ...schedule,
      migrationUrl: body.migrationUrl ?? current?.migrationUrl ?? null,
      ...dates,
    });
    await runtime.refresh();
    await recorder.flush();
    return detail(name);
  });

  app.get(
    '/versions/:name/calls',
    { schema: listCallsSchema, config: queryIntegerSteps(listCallsSchema.querystring) },
    async (request) => {
      const name = find((request.params as { name: string }).name).name;
      const query = request.query as Record<string, string | undefined>;
      const page = parsePage(query);
      await recorder.flush();
      const result = await usage.list({
        version: name,
        limit: page.limit,
        afterId: page.afterId,
        ...(query.clientId ? { clientId: query.clientId } : {}),
      });
      return {
        data: result.items.map((c) => ({
          version: c.version,
          endpoint: c.endpoint,
          clientId: c.clientId,
          at: formatIsoInstant(c.at),
        })),
        meta: { limit: page.limit, nextCursor: result.nextAfter === null ? null : encodeCursor(result.nextAfter) },
      };
    },
  );

  app.post('/deprecations', { schema: deprecateEndpointSchema }, async (request, reply) => {
    const input = request.body as Static<typeof deprecateEndpointSchema.body>;
    const method = input.method.toUpperCase();
    assertMigrationUrl(input.migrationUrl, '/body/migrationUrl');
    const version = bundle.get(input.version);
    if (runtime.versions().some((v) => v.name === input.version)) assertNotRemoved(runtime, input.version);
    if (!version || !version.operations.some((o) => o.method === method && o.path === input.path)) {
      throw new VersionaryError({
        code: ErrorCode.NotFound,
        detail: `${input.version} has no endpoint ${method} ${input.path}.`,
      });
    }
    const now = clock.now();
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
      audience,
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
    await lifecycle.saveEndpointDeprecation(saved);
    await runtime.refresh();
    return reply.code(201).send({ ...saved, ...isoDeprecationDates(saved) });
  });
}

/**
 * The next schedule of a version already deprecated. A notice period and no dates is the spec's
 * scheduling: the deprecation is announced anew from now, an explicit act. Given dates, it is
 * rescheduled: it keeps its announced deprecation date and moves its sunset as the policy allows.
 * Neither (a body that only sets the cap, the closing, the guide or the reason): the dates stay.
 */
function nextSchedule(options: {
  body: Static<typeof scheduleDeprecationSchema.body>;
  input: Parameters<typeof scheduleDeprecation>[0];
  current: StoredSchedule;
}): DeprecationSchedule {
  const { body, input, current } = options;
  if (body.sunsetAt !== undefined || body.deprecatedAt !== undefined) return rescheduleDeprecation(input).schedule;
  if (body.noticeMonths !== undefined) return scheduleDeprecation(input).schedule;
  const { version, deprecatedAt, sunsetAt, removed } = current;
  return { version, deprecatedAt, sunsetAt, removed, reason: body.reason ?? current.reason };
}

/**
 * Refuse (409 `TRANSITION_NOT_ALLOWED`) any lifecycle change to a version that is removed, by
 * its flag or because its sunset has passed: the lifecycle has no transition out of Removed.
 */
function assertNotRemoved(runtime: LifecycleRuntime, name: string): void {
  const flagged = runtime.versions().find((v) => v.name === name)?.schedule?.removed === true;
  if (!flagged && !runtime.verdict({ version: name, method: 'GET', path: '/' }).removed) return;
  throw new VersionaryError({
    code: ErrorCode.TransitionNotAllowed,
    detail: `${name} is removed, and the lifecycle has no way out of Removed: it cannot be rescheduled or deprecated again. Publish a new version instead.`,
    extensions: { version: name, state: 'removed' },
  });
}

/**
 * The cap on extended access and the closing to new clients of a deprecation body, checked and
 * merged with the current values (`null` unsets one, an absent one keeps `current`'s): the cap
 * must come after the sunset it extends, and a closing given now must not come before now or
 * before the deprecation (it would cut off clients that were never told). Every mistake is
 * listed in one 400 problem; unset dates are absent.
 */
function lifecycleDatesOf(
  body: Pick<Static<typeof scheduleDeprecationSchema.body>, keyof DeprecationDates>,
  context: { sunsetAt: number; deprecatedAt: number; now: number; current?: DeprecationDates | undefined },
): DeprecationDates {
  const errors: Array<{ pointer: string; detail: string }> = [];
  const read = (key: keyof DeprecationDates): number | undefined => {
    const raw = body[key];
    if (raw === undefined) return context.current?.[key];
    if (raw === null) return undefined;
    const at = parseIsoInstant(raw);
    if (at === undefined) errors.push({ pointer: `/body/${key}`, detail: 'not an ISO 8601 date' });
    return at;
  };
  const cap = read('extendedAccessUntil');
  const closed = read('closedToNewClientsAt');
  if (cap !== undefined && cap <= context.sunsetAt)
    errors.push({
      pointer: '/body/extendedAccessUntil',
      detail: `must be after the sunset it extends (${formatIsoInstant(context.sunsetAt)})${
        body.extendedAccessUntil === undefined ? '; the current cap is not: give a new one, or null to unset it' : ''
      }`,
    });
  // Only a closing given in this body is judged: a stored one that has passed is the normal case.
  const early =
    closed === undefined || typeof body.closedToNewClientsAt !== 'string'
      ? undefined
      : closed < context.now
        ? `must not be in the past (now is ${formatIsoInstant(context.now)}): it would cut off new clients at once, with no notice`
        : closed < context.deprecatedAt
          ? `must not come before the deprecation (${formatIsoInstant(context.deprecatedAt)}): clients would be shut out before being told`
          : undefined;
  if (early) errors.push({ pointer: '/body/closedToNewClientsAt', detail: early });
  if (errors.length > 0)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The lifecycle dates have ${errors.length} error(s): ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`,
      errors,
    });
  return {
    ...(cap === undefined ? {} : { extendedAccessUntil: cap }),
    ...(closed === undefined ? {} : { closedToNewClientsAt: closed }),
  };
}
