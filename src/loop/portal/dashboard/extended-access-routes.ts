import { earlierNames } from '../../../core/earlier-names.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { singleLineTextPattern } from '../../../core/text/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import { declineRequest, grantRequest } from '../../lifecycle/extended-access/request-routes.ts';
import { prefersHtml } from '../prefers-html.ts';
import { gatherConsumerData, type ConsumerWarning } from './consumer-data.ts';
import type { DashboardKit } from './dashboard-kit.ts';
import type { PortalSession } from './session.ts';
import type { ExtendedAccessGrant, ExtendedAccessRequest, ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import { subjectCap } from '../../lifecycle/extended-access/check-grant.ts';
import type { DashboardOptions } from './options.ts';

/** The longest reason a form takes, as the management API's. */
const reasonMax = 1000;

/**
 * The extended-access forms: a consumer asks (its client from the session, never the form); the
 * owner grants or declines through the management API's own code, so the cap rule holds.
 */
export function registerPortalExtendedAccessRoutes(
  portal: FastifyInstance,
  kit: DashboardKit,
  render: (reply: FastifyReply, o: { session: PortalSession; error: string }) => Promise<FastifyReply>,
): void {
  const { options } = kit;
  const form = async (
    { request, reply }: { request: FastifyRequest; reply: FastifyReply },
    role: PortalSession['role'],
    act: (session: PortalSession, body: Record<string, unknown>) => Promise<unknown>,
  ) => {
    const session = await kit.formSession(request);
    if (!session) return kit.toSignIn(reply);
    // A consumer's forms and the owner's are apart: the other role is "not found", so nothing can be probed.
    if (session.role !== role) throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'No such form.' });
    try {
      await act(session, (request.body ?? {}) as Record<string, unknown>);
    } catch (error) {
      const refused =
        error instanceof VersionaryError &&
        (error.code === ErrorCode.ValidationFailed || error.code === ErrorCode.Conflict);
      if (!refused || !prefersHtml(request.headers.accept)) throw error;
      return render(reply.code(error.code === ErrorCode.Conflict ? 409 : 400), { session, error: error.detail });
    }
    return reply.header('cache-control', 'no-store').redirect('/portal#extended-access', 303);
  };
  // The first release's pages posted to its earlier path: kept as an alias.
  for (const path of ['/extended-access-requests', earlierNames.requestsPath]) {
    portal.post(path, (request, reply) =>
      form({ request, reply }, 'consumer', async (session, body) => {
        const { warnings } = await gatherConsumerData(options, session.clientId);
        const { askable } = await gatherExtendedAccess(options, { clientId: session.clientId, warnings });
        const asked = askable.find((a) => a.key === body.subject);
        const reason = text(body.reason, 'reason');
        if (!asked)
          invalid('subject', 'That is not something you call that can still be extended (no cap, or already asked).');
        const until = optionalDate(body.until, options.clock.now());
        if (until !== undefined && until > asked.cap)
          invalid(
            'until',
            `The wished date is after the last possible one (${formatIsoInstant(asked.cap).slice(0, 10)}).`,
          );
        await options.storage.extendedAccessRequests.insert({
          id: `exr_${randomBytes(8).toString('hex')}`,
          clientId: session.clientId,
          subject: asked.subject,
          reason,
          requestedUntil: until ?? null,
          status: 'pending',
          createdAt: options.clock.now(),
          decidedAt: null,
          decidedBy: null,
          decisionNote: null,
          grantId: null,
        });
      }),
    );
    portal.post(`${path}/:id/grant`, (request, reply) =>
      form({ request, reply }, 'admin', async (session, body) => {
        const until = typeof body.until === 'string' && body.until.length <= 40 ? body.until : '';
        const note = body.note === undefined || body.note === '' ? null : text(body.note, 'note');
        await grantRequest(options, { id: idOf(request), until, note, actor: actorOf(session) });
      }),
    );
    portal.post(`${path}/:id/decline`, (request, reply) =>
      form({ request, reply }, 'admin', async (session, body) => {
        await declineRequest(options, {
          id: idOf(request),
          reason: text(body.reason, 'reason'),
          actor: actorOf(session),
        });
      }),
    );
  }
}

const actorOf = (session: PortalSession) => (session.keyId === 'admin' ? 'admin' : `portal (${session.keyId})`);

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

function invalid(field: string, detail: string): never {
  throw new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail,
    errors: [{ pointer: `/body/${field}`, detail }],
  });
}

/** A required one-line text of at most {@link reasonMax} characters. */
function text(value: unknown, field: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed === '') invalid(field, `Give a ${field}.`);
  if (trimmed.length > reasonMax) invalid(field, `The ${field} is longer than ${reasonMax} characters.`);
  if (!new RegExp(singleLineTextPattern).test(trimmed))
    invalid(field, `The ${field} must be one line, without control characters.`);
  return trimmed;
}

/** An optional date (`2026-09-01` or an instant); undefined when left empty. */
function optionalDate(value: unknown, now: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const at = typeof value === 'string' && value.length <= 40 ? parseIsoInstant(value) : undefined;
  if (at === undefined) invalid('until', 'The wished date is not a date (YYYY-MM-DD).');
  if (at <= now) invalid('until', 'The wished date has passed.');
  return at;
}

/** A deprecated subject this client calls that can still be extended: it has a cap, and no grant or pending request. */
interface AskableSubject {
  subject: ExtendedAccessSubject;
  /** The form's value for it: `version:v1`, `endpoint:v1 GET /users`. */
  key: string;
  name: string;
  sunsetAt: number | undefined;
  cap: number;
}

/** What the extended-access section shows: to a consumer its own, to the owner everyone's. */
export interface ExtendedAccessData {
  askable: AskableSubject[];
  requests: ExtendedAccessRequest[];
  extendedAccess: ExtendedAccessGrant[];
}

/** The form value naming a subject; the request route finds the subject again by it. */
function subjectKey(s: ExtendedAccessSubject): string {
  if (s.kind === 'endpoint') return `endpoint:${s.version} ${s.method} ${s.path}`;
  if (s.kind === 'element') return `element:${s.version} ${s.element}`;
  return `version:${s.version}`;
}

/** How a page names a subject: `v1`, `GET /users in v1`, `User.nickname in v1`. */
export function subjectName(s: ExtendedAccessSubject): string {
  if (s.kind === 'endpoint') return `${s.method} ${s.path} in ${s.version}`;
  if (s.kind === 'element') return `${s.element} in ${s.version}`;
  return s.version;
}

/** A client's extended access: what it may still ask for (from its warnings), its requests and its grants of extended access. */
export async function gatherExtendedAccess(
  options: DashboardOptions,
  o: { clientId: string; warnings: ConsumerWarning[] },
): Promise<ExtendedAccessData> {
  const [requests, extendedAccess] = await Promise.all([
    options.storage.extendedAccessRequests.list({ clientId: o.clientId }),
    options.storage.extendedAccess.list({ clientId: o.clientId }),
  ]);
  const taken = new Set([
    ...extendedAccess.map((e) => subjectKey(e.subject)),
    ...requests.filter((r) => r.status === 'pending').map((r) => subjectKey(r.subject)),
  ]);
  const askable: AskableSubject[] = [];
  for (const w of o.warnings) {
    const endpoint = w.subject === w.version ? undefined : w.endpoints[0]?.endpoint;
    const [method, path] = endpoint ? endpoint.split(' ') : [];
    const subject: ExtendedAccessSubject =
      method && path ? { kind: 'endpoint', version: w.version, method, path } : { kind: 'version', version: w.version };
    const cap = subjectCap(options.runtime, subject);
    const key = subjectKey(subject);
    if (cap === undefined || cap <= options.clock.now() || taken.has(key)) continue;
    askable.push({ subject, key, name: subjectName(subject), sunsetAt: w.sunsetAt, cap });
  }
  return { askable, requests: requests.reverse(), extendedAccess };
}
