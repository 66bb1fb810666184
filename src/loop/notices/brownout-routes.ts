import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { DAY_MS } from '../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/time/index.ts';
import {
  checkBrownout,
  defaultScheduleSteps,
  scheduleWindows,
  type Brownout,
  type NoticeSubject,
} from '../../core/notices/index.ts';
import { principalOf } from '../../kernel/ports/principal.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { Storage } from '../../kernel/ports/index.ts';
import type { BrownoutCache } from './brownout-guard.ts';
import { noticeSubjects } from './gather.ts';
import {
  BrownoutBody,
  BrownoutItem,
  BrownoutList,
  BrownoutParams,
  BrownoutScheduleBody,
  BrownoutScheduleResult,
  RehearsalBody,
} from './schemas.ts';
import { adminRoute, responses } from '../host/admin-route-schemas.ts';

const noClient = { 401: 'No credentials', 403: 'The credential belongs to no client' };
const badBrownout =
  'The body is invalid, or the window cannot be planned (the subject is not deprecated, the window is over or outside the notice period)';

const rehearsalLimits = { maxMinutes: 60, maxDaysAhead: 30, maxPlanned: 3 } as const;

type Problem = { pointer: string; detail: string };
/** What a brownout is of, and whom it refuses. */
type BrownoutSubject = Pick<Static<typeof BrownoutBody>, 'version' | 'endpoint' | 'target'>;

export interface BrownoutRoutesOptions {
  storage: Pick<Storage, 'notices' | 'clients' | 'usage'>;
  cache: BrownoutCache;
  runtime: LifecycleRuntime;
  clock: Clock;
  /** Flush buffered usage, so a brownout aimed at recent callers counts a call made a moment ago. */
  flushUsage: () => Promise<void>;
}

/**
 * The list, create and cancel routes of brownouts under `path`: every brownout in the management
 * API, or with `clientOf` a client's own rehearsals.
 */
function registerBrownoutRoutes(
  app: FastifyInstance,
  options: BrownoutRoutesOptions,
  routes: {
    path: string;
    /** The client whose rehearsals a request may see and change, or undefined for every brownout. */
    clientOf?: (request: FastifyRequest) => string;
    schemas: Record<'list' | 'create' | 'cancel', object>;
    created: (reply: FastifyReply, brownout: Brownout) => FastifyReply;
    /** The 404's detail for an id the request may not cancel. */
    unknown: (id: string) => string;
  },
): void {
  const { path, clientOf } = routes;
  const item = (b: Brownout) => toItem(b, options.cache.configured);
  const visible = (clientId: string | undefined) =>
    options.cache.all().filter((b) => clientId === undefined || b.clientId === clientId);
  app.get(path, { schema: routes.schemas.list }, async (request) => ({ data: visible(clientOf?.(request)).map(item) }));
  app.post(path, { schema: routes.schemas.create }, async (request, reply) => {
    const b = await save(options, request.body as Static<typeof BrownoutBody>, clientOf?.(request));
    return routes.created(reply.code(201), b).send(item(b));
  });
  app.delete(`${path}/:id`, { schema: routes.schemas.cancel }, async (request, reply) => {
    const clientId = clientOf?.(request);
    const { id } = request.params as { id: string };
    // The management API cancels any brownout of the store, even one this instance has not seen yet.
    const mine = clientId === undefined || visible(clientId).some((b) => b.id === id);
    if (!mine || !(await options.storage.notices.deleteBrownout(id)))
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: routes.unknown(id) });
    await options.cache.refresh();
    return reply.code(204).send();
  });
}

/** Brownouts in the management API (`/admin/v1/brownouts`, `/admin/v1/brownout-schedules`). */
export function registerBrownoutAdminRoutes(app: FastifyInstance, options: BrownoutRoutesOptions): void {
  registerBrownoutRoutes(app, options, {
    path: '/brownouts',
    schemas: {
      list: adminRoute({
        operationId: 'brownouts.list',
        summary: 'List planned brownouts and rehearsals',
        tags: ['brownouts'],
        description: "Every brownout, from the config file and from this API, and every client's rehearsal.",
        response: { 200: BrownoutList },
      }),
      create: adminRoute({
        operationId: 'brownouts.create',
        summary: 'Plan a brownout',
        tags: ['brownouts'],
        body: BrownoutBody,
        description:
          'A window in which calls to a deprecated version or endpoint answer as if it were removed, so that its last consumers notice. `target` aims it at every client (the default), a list of clients, or the clients that called the subject in the last N days (resolved now and recorded on the brownout).',
        responseHeaders: { 201: ['Location'] },
        response: {
          201: { ...BrownoutItem, description: 'Planned; `Location` names the brownout.' },
          400: badBrownout,
        },
      }),
      cancel: adminRoute({
        operationId: 'brownouts.delete',
        summary: 'Cancel a planned brownout',
        tags: ['brownouts'],
        params: BrownoutParams,
        description: 'Cancel a brownout planned through this API (those of the config file are changed there).',
        response: {
          204: Type.Null({ description: 'Cancelled' }),
          404: 'No brownout with this id planned through this API',
        },
      }),
    },
    created: (reply, b) => reply.header('location', `/admin/v1/brownouts/${b.id}`),
    unknown: (id) => `No brownout ${id} (brownouts of the config file are changed there).`,
  });
  // Windows counted back from the subject's sunset, one target. All or nothing: one step that
  // cannot be planned is a problem, and none is planned.
  app.post(
    '/brownout-schedules',
    {
      schema: adminRoute({
        operationId: 'brownouts.schedule',
        summary: 'Plan a progressive series of brownouts before the sunset',
        tags: ['brownouts'],
        body: BrownoutScheduleBody,
        description:
          'Windows counted back from the sunset of a deprecated version or endpoint, longer as it nears; every window has the same target. None is planned when one step is in the past, ends after the sunset or overlaps another brownout of the version: the problem lists each.',
        response: {
          201: { ...BrownoutScheduleResult, description: 'Planned.' },
          400: 'The body is invalid, the subject is not deprecated, or a step cannot be planned',
        },
      }),
    },
    async (request, reply) => {
      const body = request.body as Static<typeof BrownoutScheduleBody>;
      const planned = await plan(options, { body, problems: [] }, (subject, now, problems) => {
        const windows = scheduleWindows({
          sunsetAt: subject.sunsetAt,
          steps: body.steps ?? defaultScheduleSteps,
          now,
          // Rehearsals are each client's own; planned windows of the version are not to be doubled.
          taken: options.cache.all().filter((b) => b.version === body.version && b.clientId === undefined),
        });
        windows.forEach((w, i) =>
          problems.push(
            ...w.problems.map((p) => ({ pointer: `/steps/${i}${p.pointer}`, detail: `step ${i + 1}: ${p.detail}` })),
          ),
        );
        return windows.flatMap((w) => ('startsAt' in w ? [w] : []));
      });
      return reply.code(201).send({
        data: planned.sort((a, b) => a.startsAt - b.startsAt).map((b) => toItem(b, options.cache.configured)),
      });
    },
  );
}

/** Rehearsal routes for consumers: authenticated by the client's own key (any role). */
export function registerRehearsalRoutes(app: FastifyInstance, options: BrownoutRoutesOptions): void {
  registerBrownoutRoutes(app, options, {
    path: '/self/v1/brownout-rehearsals',
    clientOf: (request) => {
      const principal = principalOf(request);
      if (!principal)
        throw new VersionaryError({
          code: ErrorCode.Unauthenticated,
          detail: 'Send your API key: a rehearsal is for your own client.',
          headers: { 'www-authenticate': 'Bearer' },
        });
      if (!principal.clientId)
        throw new VersionaryError({
          code: ErrorCode.Forbidden,
          detail: 'This credential belongs to no client; rehearsals are scheduled per client.',
        });
      return principal.clientId;
    },
    schemas: {
      list: {
        summary: 'List your brownout rehearsals',
        tags: ['notices'],
        response: responses({ 200: BrownoutList, ...noClient }),
      },
      create: {
        summary: 'Schedule a brownout rehearsal for your client',
        tags: ['notices'],
        body: RehearsalBody,
        response: responses({ 201: BrownoutItem, 400: badBrownout, ...noClient }),
      },
      cancel: {
        summary: 'Cancel one of your rehearsals',
        tags: ['notices'],
        params: BrownoutParams,
        response: responses({ 204: Type.Null(), ...noClient, 404: 'You have no rehearsal with this id' }),
      },
    },
    created: (reply) => reply,
    unknown: (id) => `You have no rehearsal ${id}.`,
  });
}

/** One brownout (or a rehearsal, with `clientId`) of the body's window. */
async function save(
  options: BrownoutRoutesOptions,
  body: Static<typeof BrownoutBody>,
  clientId: string | undefined,
): Promise<Brownout> {
  const startsAt = parseIsoInstant(body.startsAt);
  const endsAt = parseIsoInstant(body.endsAt);
  const problems: Problem[] = [];
  if (startsAt === undefined) problems.push({ pointer: '/startsAt', detail: 'an ISO 8601 instant' });
  if (endsAt === undefined) problems.push({ pointer: '/endsAt', detail: 'an ISO 8601 instant' });
  const planned = await plan(options, { body, problems, clientId }, (subject, now) => {
    if (startsAt === undefined || endsAt === undefined) return [];
    for (const detail of checkBrownout({
      brownout: { startsAt, endsAt },
      deprecatedAt: Math.min(subject.deprecatedAt, now),
      sunsetAt: subject.sunsetAt,
    }))
      problems.push({ pointer: '', detail });
    if (endsAt <= now) problems.push({ pointer: '/endsAt', detail: 'the window is already over' });
    if (clientId) {
      const { maxMinutes, maxDaysAhead, maxPlanned } = rehearsalLimits;
      if (endsAt - startsAt > maxMinutes * 60_000)
        problems.push({ pointer: '/endsAt', detail: `a rehearsal lasts at most ${maxMinutes} minutes` });
      if (startsAt > now + maxDaysAhead * DAY_MS)
        problems.push({ pointer: '/startsAt', detail: `a rehearsal starts within ${maxDaysAhead} days` });
      const planned = options.cache.all().filter((b) => b.clientId === clientId && b.endsAt > now).length;
      if (planned >= maxPlanned)
        problems.push({ pointer: '', detail: `at most ${maxPlanned} rehearsals may be planned at once` });
    }
    return [{ startsAt, endsAt }];
  });
  return planned[0]!;
}

/**
 * Plan brownouts of the body's subject over the windows `windowsOf` finds for it, aimed at the
 * body's target; all or none: a 400 lists every problem, those `windowsOf` pushes included.
 */
async function plan(
  options: BrownoutRoutesOptions,
  request: { body: BrownoutSubject; problems: Problem[]; clientId?: string | undefined },
  windowsOf: (subject: NoticeSubject, now: number, problems: Problem[]) => Array<Pick<Brownout, 'startsAt' | 'endsAt'>>,
): Promise<Brownout[]> {
  const { body, problems, clientId } = request;
  const now = options.clock.now();
  const subject = findSubject(options.runtime, body, problems);
  const target = await resolveTarget(options, body, { now, problems });
  const windows = subject ? windowsOf(subject, now, problems) : [];
  if (problems.length > 0)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The brownout cannot be planned: ${problems.map((p) => p.detail).join('; ')}.`,
      errors: problems,
    });
  const planned: Brownout[] = windows.map((w) => ({
    id: `bo_${randomBytes(8).toString('hex')}`,
    version: body.version,
    ...(body.endpoint ? { endpoint: body.endpoint } : {}),
    startsAt: w.startsAt,
    endsAt: w.endsAt,
    ...(clientId ? { clientId } : {}),
    ...target,
  }));
  for (const b of planned) await options.storage.notices.saveBrownout({ ...b, createdAt: now });
  await options.cache.refresh();
  return planned;
}

/** The deprecated version or endpoint a body names; a problem when it names none. */
function findSubject(
  runtime: LifecycleRuntime,
  body: { version: string; endpoint?: string },
  problems: Problem[],
): NoticeSubject | undefined {
  // A deprecated field or parameter browns out nothing: its version stays active.
  const subjects = noticeSubjects(runtime).filter((s) => s.element === undefined);
  const subject =
    subjects.find((s) => s.version === body.version && s.endpoint === (body.endpoint ?? undefined)) ??
    (body.endpoint ? subjects.find((s) => s.version === body.version && s.endpoint === undefined) : undefined);
  if (subject?.removed) problems.push({ pointer: '/version', detail: 'already removed' });
  if (subject) return subject;
  const detail = `${body.endpoint ?? body.version} is not deprecated: only a deprecated version or endpoint can be browned out`;
  problems.push({ pointer: body.endpoint ? '/endpoint' : '/version', detail });
  return undefined;
}

/**
 * Resolve a target to its clients once, when the brownout is planned (usage flushed first). A set
 * that comes out empty is a problem: the brownout would refuse nobody.
 */
async function resolveTarget(
  options: BrownoutRoutesOptions,
  { target, ...subject }: BrownoutSubject,
  { now, problems }: { now: number; problems: Problem[] },
): Promise<Pick<Brownout, 'clients' | 'calledWithinDays'>> {
  if (!target || target.all) return {};
  if (target.clients) {
    const known = new Set((await options.storage.clients.findMany(target.clients)).map((c) => c.id));
    target.clients.forEach((id, i) => {
      if (!known.has(id)) problems.push({ pointer: `/target/clients/${i}`, detail: `no client ${id}` });
    });
    return { clients: [...target.clients] };
  }
  const days = target.calledWithinDays!;
  await options.flushUsage();
  const rows = await options.storage.usage.byClient({ since: now - days * DAY_MS, version: subject.version });
  const called = rows.filter((r) => r.calls > 0 && (subject.endpoint === undefined || r.endpoint === subject.endpoint));
  const callers = [...new Set(called.map((r) => r.clientId))].sort();
  const what = subject.endpoint ? `${subject.endpoint} of ${subject.version}` : subject.version;
  const detail = `no client called ${what} in the last ${days} days: the brownout would refuse nobody`;
  if (callers.length === 0) problems.push({ pointer: '/target/calledWithinDays', detail });
  return { clients: callers, calledWithinDays: days };
}

function toItem(b: Brownout, configured: Brownout[]) {
  return {
    id: b.id,
    version: b.version,
    endpoint: b.endpoint ?? null,
    startsAt: formatIsoInstant(b.startsAt),
    endsAt: formatIsoInstant(b.endsAt),
    client: b.clientId ?? null,
    // Whom the brownout refuses: a rehearsal targets its own client.
    target:
      b.clientId !== undefined
        ? { all: false, clients: [b.clientId], calledWithinDays: null }
        : {
            all: b.clients === undefined,
            clients: b.clients ? [...b.clients] : null,
            calledWithinDays: b.calledWithinDays ?? null,
          },
    source: configured.includes(b) ? ('config' as const) : ('api' as const),
  };
}
