import type { FastifyInstance } from 'fastify';
import { defaultScheduleSteps, scheduleWindows, type ScheduleStep } from '../../core/notices/index.ts';
import { brownoutRefused, findSubject, newBrownout, toItem, type BrownoutRoutesOptions } from './brownout-routes.ts';
import { resolveTarget, type TargetInput } from './brownout-targets.ts';
import { BrownoutScheduleBody, BrownoutScheduleResult } from './schemas.ts';
import { NoQuery, problems } from '../host/admin-route-schemas.ts';

type Body = { version: string; endpoint?: string; steps?: ScheduleStep[]; target?: TargetInput };

/**
 * `POST /admin/v1/brownout-schedules`: windows counted back from the subject's sunset, one target.
 * All or nothing: one step that cannot be planned is a problem, and none is planned.
 */
export function registerBrownoutScheduleRoute(app: FastifyInstance, options: BrownoutRoutesOptions): void {
  app.post(
    '/brownout-schedules',
    {
      schema: {
        operationId: 'brownouts.schedule',
        summary: 'Plan a progressive series of brownouts before the sunset',
        tags: ['brownouts'],
        querystring: NoQuery,
        body: BrownoutScheduleBody,
        description:
          'Windows counted back from the sunset of a deprecated version or endpoint, longer as it nears; every window has the same target. None is planned when one step is in the past, ends after the sunset or overlaps another brownout of the version: the problem lists each.',
        response: {
          201: { ...BrownoutScheduleResult, description: 'Planned.' },
          ...problems({
            400: 'The body is invalid, the subject is not deprecated, or a step cannot be planned',
          }),
        },
      },
    },
    async (request, reply) => {
      const body = request.body as Body;
      const steps = body.steps ?? defaultScheduleSteps;
      const now = options.clock.now();
      const found = findSubject(options.runtime, body);
      const resolved = await resolveTarget({ ...options, target: body.target, subject: body, now });
      const problems = [...found.problems, ...resolved.problems];
      const subject = found.subject;
      const windows = subject
        ? scheduleWindows({
            sunsetAt: subject.sunsetAt,
            steps,
            now,
            // Rehearsals are each client's own; planned windows of the version are not to be doubled.
            taken: options.cache.all().filter((b) => b.version === body.version && b.clientId === undefined),
          })
        : [];
      windows.forEach((w, i) =>
        problems.push(
          ...w.problems.map((p) => ({ pointer: `/steps/${i}${p.pointer}`, detail: `step ${i + 1}: ${p.detail}` })),
        ),
      );
      if (problems.length > 0) throw brownoutRefused(problems);
      const planned = windows.flatMap((w) =>
        'startsAt' in w ? [newBrownout(body, { startsAt: w.startsAt, endsAt: w.endsAt }, resolved)] : [],
      );
      for (const b of planned) await options.store.saveBrownout({ ...b, createdAt: now });
      await options.cache.refresh();
      return reply
        .code(201)
        .send({ data: planned.sort((a, b) => a.startsAt - b.startsAt).map((b) => toItem(b, options.configured)) });
    },
  );
}
