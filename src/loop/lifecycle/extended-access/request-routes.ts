import { earlierNames } from '../../../core/earlier-names.ts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import type {
  ExtendedAccessDecision,
  ExtendedAccessDecisionNotifier,
  ExtendedAccessRequest,
  Storage,
} from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import { subjectCap, type GrantBody } from './check-grant.ts';
import { grantExtendedAccess, subjectMembers } from './grant-routes.ts';
import { requestRoutes } from './schemas.ts';
import { actorOf } from '../../host/actor.ts';

type RequestStorage = Pick<Storage, 'extendedAccess' | 'extendedAccessRequests' | 'clients'>;
interface DecideOptions {
  storage: RequestStorage;
  runtime: LifecycleRuntime;
  clock: Clock;
  /** Tells the client of the decision (the notices part's); absent without that part, and nothing is sent. */
  decisionNotices?: ExtendedAccessDecisionNotifier;
}

/** `/admin/v1/extended-access-requests` (and its earlier path): consumers' requests, granted or declined once. */
export function registerExtendedAccessRequestRoutes(
  app: FastifyInstance,
  options: DecideOptions & { storage: RequestStorage & Pick<Storage, 'apiKeys'> },
): void {
  const { storage } = options;
  for (const { path, schema } of requestRoutes) {
    app.get(path, { schema: schema.list }, async (request) => {
      const { status } = request.query as { status?: ExtendedAccessRequest['status'] };
      return { data: (await storage.extendedAccessRequests.list(status ? { status } : {})).map(requestBody) };
    });
    // A decision is a resource of the request (the spec: the URI a noun, the method the verb).
    app.post(`${path}/:id/decisions`, { schema: schema.decide }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = request.body as Static<typeof schema.decide.body>;
      const missing =
        body.decision === 'granted'
          ? body.until === undefined && {
              pointer: '/body/until',
              detail: 'A grant needs "until", the client\'s own date.',
            }
          : body.reason === undefined && {
              pointer: '/body/reason',
              detail: 'A decline needs "reason", told to the client.',
            };
      if (missing)
        throw new VersionaryError({ code: ErrorCode.ValidationFailed, detail: missing.detail, errors: [missing] });
      const actor = await actorOf(request, storage.apiKeys);
      const decided =
        body.decision === 'granted'
          ? await grantRequest(options, { id, until: body.until!, note: body.reason ?? null, actor })
          : await declineRequest(options, { id, reason: body.reason!, actor });
      return reply.send(requestBody(decided));
    });
  }
}

async function pending(storage: RequestStorage, id: string): Promise<ExtendedAccessRequest> {
  const found = await storage.extendedAccessRequests.find(id);
  if (!found) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No request ${id.slice(0, 40)}.` });
  if (found.status !== 'pending') throw alreadyDecided(found);
  return found;
}

const alreadyDecided = (r: ExtendedAccessRequest) =>
  new VersionaryError({ code: ErrorCode.Conflict, detail: `The request ${r.id} was already ${r.status}.` });

/** Grant a pending request: the grant first (the cap checked), then the request marked granted. */
export async function grantRequest(
  options: DecideOptions,
  o: { id: string; until: string; note: string | null; actor: string },
): Promise<ExtendedAccessRequest> {
  const { storage, clock } = options;
  const request = await pending(storage, o.id);
  const reason = o.note ?? `Requested: ${request.reason}`.slice(0, 1000);
  const body: GrantBody = { clientId: request.clientId, ...subjectMembers(request.subject), until: o.until, reason };
  const grant = await grantExtendedAccess(options, { body, actor: o.actor });
  const decision = { id: o.id, status: 'granted', at: clock.now(), by: o.actor, note: o.note } as const;
  if (!(await storage.extendedAccessRequests.decide({ ...decision, grantId: grant.id }))) {
    // Another owner decided it meanwhile: the grant just made must not stand beside that decision.
    await storage.extendedAccess.revoke({ id: grant.id, at: clock.now(), by: o.actor });
    await options.runtime.refresh();
    throw alreadyDecided((await storage.extendedAccessRequests.find(o.id))!);
  }
  const granted = (await storage.extendedAccessRequests.find(o.id))!;
  await tell(options, { request: granted, until: grant.until });
  return granted;
}

export async function declineRequest(
  options: DecideOptions,
  o: { id: string; reason: string; actor: string },
): Promise<ExtendedAccessRequest> {
  const { storage, clock } = options;
  await pending(storage, o.id);
  const decided = await storage.extendedAccessRequests.decide({
    id: o.id,
    status: 'declined',
    at: clock.now(),
    by: o.actor,
    note: o.reason,
    grantId: null,
  });
  const now = (await storage.extendedAccessRequests.find(o.id))!;
  if (!decided) throw alreadyDecided(now);
  await tell(options, { request: now, until: null });
  return now;
}

/** Queue the client's notice of a decision (the notifier logs, never throws: the decision stands). */
async function tell(options: DecideOptions, decision: Omit<ExtendedAccessDecision, 'cap'>): Promise<void> {
  await options.decisionNotices?.({ ...decision, cap: subjectCap(options.runtime, decision.request.subject) ?? null });
}

const instant = (at: number | null) => (at === null ? null : formatIsoInstant(at));

function requestBody(r: ExtendedAccessRequest) {
  return {
    id: r.id,
    clientId: r.clientId,
    ...subjectMembers(r.subject),
    reason: r.reason,
    requestedUntil: instant(r.requestedUntil),
    status: r.status,
    createdAt: formatIsoInstant(r.createdAt),
    decidedAt: instant(r.decidedAt),
    decidedBy: r.decidedBy,
    decisionNote: r.decisionNote,
    [earlierNames.grantIdMember]: r.grantId,
  };
}
