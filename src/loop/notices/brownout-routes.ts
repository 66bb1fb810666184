import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { DAY_MS } from '../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/time/index.ts';
import { checkBrownout, type Brownout } from '../../core/notices/index.ts';
import { principalOf } from '../../kernel/ports/principal.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { ClientStore, NoticeStore, UsageStore } from '../../kernel/ports/index.ts';
import type { BrownoutCache } from './brownout-guard.ts';
import { resolveTarget, targetItem, type TargetInput } from './brownout-targets.ts';
import { noticeSubjects } from './gather.ts';
import { BrownoutBody, BrownoutItem, BrownoutList, BrownoutParams, RehearsalBody } from './schemas.ts';
import { NoQuery, problems } from '../host/admin-route-schemas.ts';
import { Type } from '@sinclair/typebox';

const noClient = { 401: 'No credentials', 403: 'The credential belongs to no client' };
const badBrownout =
  'The body is invalid, or the window cannot be planned (the subject is not deprecated, the window is over or outside the notice period)';

const rehearsalLimits = { maxMinutes: 60, maxDaysAhead: 30, maxPlanned: 3 } as const;

type Body = { version: string; endpoint?: string; startsAt: string; endsAt: string; target?: TargetInput };
type Problem = { pointer: string; detail: string };

export interface BrownoutRoutesOptions {
  store: NoticeStore;
  cache: BrownoutCache;
  runtime: LifecycleRuntime;
  clock: Clock;
  configured: Brownout[];
  clients: Pick<ClientStore, 'findMany'>;
  usage: Pick<UsageStore, 'byClient'>;
  /** Flush buffered usage, so a brownout aimed at recent callers counts a call made a moment ago. */
  flushUsage: () => Promise<void>;
}

/** Brownouts in the management API (`/admin/v1/brownouts`). */
export function registerBrownoutAdminRoutes(app: FastifyInstance, options: BrownoutRoutesOptions): void {
  const item = (b: Brownout) => toItem(b, options.configured);
  app.get(
    '/brownouts',
    {
      schema: {
        operationId: 'brownouts.list',
        summary: 'List planned brownouts and rehearsals',
        tags: ['brownouts'],
        querystring: NoQuery,
        description: "Every brownout, from the config file and from this API, and every client's rehearsal.",
        response: { 200: BrownoutList, ...problems({ 400: 'An unknown query parameter' }) },
      },
    },
    async () => ({ data: options.cache.all().map(item) }),
  );
  app.post(
    '/brownouts',
    {
      schema: {
        operationId: 'brownouts.create',
        summary: 'Plan a brownout',
        tags: ['brownouts'],
        querystring: NoQuery,
        body: BrownoutBody,
        description:
          'A window in which calls to a deprecated version or endpoint answer as if it were removed, so that its last consumers notice. `target` aims it at every client (the default), a list of clients, or the clients that called the subject in the last N days (resolved now and recorded on the brownout).',
        responseHeaders: { 201: ['Location'] },
        response: {
          201: { ...BrownoutItem, description: 'Planned; `Location` names the brownout.' },
          ...problems({ 400: badBrownout }),
        },
      },
    },
    async (request, reply) => {
      const b = await save(options, { body: request.body as Body });
      return reply.code(201).header('location', `/admin/v1/brownouts/${b.id}`).send(item(b));
    },
  );
  app.delete(
    '/brownouts/:id',
    {
      schema: {
        operationId: 'brownouts.delete',
        summary: 'Cancel a planned brownout',
        tags: ['brownouts'],
        params: BrownoutParams,
        querystring: NoQuery,
        description: 'Cancel a brownout planned through this API (those of the config file are changed there).',
        response: {
          204: Type.Null({ description: 'Cancelled' }),
          ...problems({
            400: 'An unknown query parameter',
            404: 'No brownout with this id planned through this API',
          }),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      await cancel(options, id, `No brownout ${id} (brownouts of the config file are changed there).`);
      return reply.code(204).send();
    },
  );
}

/** Rehearsal routes for consumers: authenticated by the client's own key (any role). */
export function registerRehearsalRoutes(app: FastifyInstance, options: BrownoutRoutesOptions): void {
  const item = (b: Brownout) => toItem(b, options.configured);
  const clientOf = (request: Parameters<typeof principalOf>[0]): string => {
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
  };
  app.get(
    '/self/v1/brownout-rehearsals',
    {
      schema: {
        summary: 'List your brownout rehearsals',
        tags: ['notices'],
        response: {
          200: BrownoutList,
          ...problems(noClient),
        },
      },
    },
    async (request) => {
      const clientId = clientOf(request);
      return {
        data: options.cache
          .all()
          .filter((b) => b.clientId === clientId)
          .map(item),
      };
    },
  );
  app.post(
    '/self/v1/brownout-rehearsals',
    {
      schema: {
        summary: 'Schedule a brownout rehearsal for your client',
        tags: ['notices'],
        body: RehearsalBody,
        response: {
          201: BrownoutItem,
          ...problems({ 400: badBrownout, ...noClient }),
        },
      },
    },
    async (request, reply) => {
      const clientId = clientOf(request);
      const b = await save(options, { body: request.body as Body, clientId });
      return reply.code(201).send(item(b));
    },
  );
  app.delete(
    '/self/v1/brownout-rehearsals/:id',
    {
      schema: {
        summary: 'Cancel one of your rehearsals',
        tags: ['notices'],
        params: BrownoutParams,
        response: {
          204: Type.Null(),
          ...problems({ ...noClient, 404: 'You have no rehearsal with this id' }),
        },
      },
    },
    async (request, reply) => {
      const clientId = clientOf(request);
      const { id } = request.params as { id: string };
      const mine = options.cache.all().some((b) => b.id === id && b.clientId === clientId);
      await cancel(options, mine ? id : undefined, `You have no rehearsal ${id}.`);
      return reply.code(204).send();
    },
  );
}

/** The deprecated version or endpoint a body names, or the problem that it names none. */
export function findSubject(
  runtime: LifecycleRuntime,
  body: { version: string; endpoint?: string },
): { subject?: ReturnType<typeof noticeSubjects>[number]; problems: Problem[] } {
  // A deprecated field or parameter browns out nothing: its version stays active.
  const subjects = noticeSubjects(runtime).filter((s) => s.element === undefined);
  const subject =
    subjects.find((s) => s.version === body.version && s.endpoint === (body.endpoint ?? undefined)) ??
    (body.endpoint ? subjects.find((s) => s.version === body.version && s.endpoint === undefined) : undefined);
  if (subject)
    return { subject, problems: subject.removed ? [{ pointer: '/version', detail: 'already removed' }] : [] };
  const detail = `${body.endpoint ?? body.version} is not deprecated: only a deprecated version or endpoint can be browned out`;
  return { problems: [{ pointer: body.endpoint ? '/endpoint' : '/version', detail }] };
}

/** A 400 problem listing every reason a brownout cannot be planned. */
export function brownoutRefused(problems: Problem[]): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The brownout cannot be planned: ${problems.map((p) => p.detail).join('; ')}.`,
    errors: problems,
  });
}

async function save(options: BrownoutRoutesOptions, input: { body: Body; clientId?: string }): Promise<Brownout> {
  const { body, clientId } = input;
  const startsAt = parseIsoInstant(body.startsAt);
  const endsAt = parseIsoInstant(body.endsAt);
  const problems: Problem[] = [];
  if (startsAt === undefined) problems.push({ pointer: '/startsAt', detail: 'an ISO 8601 instant' });
  if (endsAt === undefined) problems.push({ pointer: '/endsAt', detail: 'an ISO 8601 instant' });
  const found = findSubject(options.runtime, body);
  const { subject } = found;
  problems.push(...found.problems);
  const now = options.clock.now();
  const resolved = await resolveTarget({ ...options, target: body.target, subject: body, now });
  problems.push(...resolved.problems);
  if (startsAt !== undefined && endsAt !== undefined && subject) {
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
  }
  if (problems.length > 0) throw brownoutRefused(problems);
  const b = newBrownout(body, { startsAt: startsAt!, endsAt: endsAt!, ...(clientId ? { clientId } : {}) }, resolved);
  await options.store.saveBrownout({ ...b, createdAt: options.clock.now() });
  await options.cache.refresh();
  return b;
}

/** A brownout of the body's subject over this window, with a fresh id and the resolved target. */
export function newBrownout(
  body: { version: string; endpoint?: string },
  window: { startsAt: number; endsAt: number; clientId?: string },
  resolved: { target: Partial<Brownout> },
): Brownout {
  return {
    id: `bo_${randomBytes(8).toString('hex')}`,
    version: body.version,
    ...(body.endpoint ? { endpoint: body.endpoint } : {}),
    ...window,
    ...resolved.target,
  };
}

/** Delete a brownout planned through the API (none when `id` is undefined): a 404 with `detail` when there is none. */
async function cancel(options: BrownoutRoutesOptions, id: string | undefined, detail: string): Promise<void> {
  if (id === undefined || !(await options.store.deleteBrownout(id)))
    throw new VersionaryError({ code: ErrorCode.NotFound, detail });
  await options.cache.refresh();
}

export function toItem(b: Brownout, configured: Brownout[]) {
  return {
    id: b.id,
    version: b.version,
    endpoint: b.endpoint ?? null,
    startsAt: formatIsoInstant(b.startsAt),
    endsAt: formatIsoInstant(b.endsAt),
    client: b.clientId ?? null,
    target: targetItem(b),
    source: configured.includes(b) ? ('config' as const) : ('api' as const),
  };
}
