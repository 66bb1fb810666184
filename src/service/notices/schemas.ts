import { Type, type TSchema } from '@sinclair/typebox';
import { noticeKinds } from '../../core/notices/index.ts';
import { outboxStatuses } from '../ports/notices.ts';

/** RFC 9457 problem body, as every error answers. */
export const NoticeProblem = Type.Object({
  type: Type.String(), title: Type.String(), status: Type.Integer(), detail: Type.String(),
  instance: Type.Optional(Type.String()), code: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), detail: Type.String() }))),
}, { additionalProperties: true, description: 'Problem details (RFC 9457).' });

/**
 * Problem responses by status, plus those every authenticated route can answer.
 *
 * @example
 * ```ts
 * response: { 200: NoticeList, ...noticeProblems(400) }
 * ```
 */
export function noticeProblems(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries([...new Set([...statuses, 401, 403, 429])].map((s) => [s, NoticeProblem]));
}

const instant = Type.String({ format: 'date-time' });

/** One outbox row as the management API shows it. */
export const NoticeItem = Type.Object({
  id: Type.Integer(),
  client: Type.String(),
  subject: Type.String({ description: '`v1`, or `v1 GET /users` for an endpoint.' }),
  kind: Type.Union(noticeKinds.map((k) => Type.Literal(k))),
  step: Type.String({ description: 'Reminder day (`30d`) or brownout id; empty otherwise.' }),
  type: Type.String({ description: 'Event type, e.g. `version.sunset_reminder`.' }),
  sunsetAt: instant,
  channel: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
  recipient: Type.String({ description: 'Email address, or webhook id.' }),
  status: Type.Union(outboxStatuses.map((s) => Type.Literal(s))),
  waitingFor: Type.Union([Type.Literal('mail-transport'), Type.Null()], { description: 'Set while no SMTP server is configured for a pending email.' }),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: instant,
  createdAt: instant,
  updatedAt: instant,
  sentAt: Type.Union([instant, Type.Null()]),
});

/** `GET /admin/v1/notices` query. */
export const NoticeQuery = Type.Object({
  client: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(Type.Union(outboxStatuses.map((s) => Type.Literal(s)))),
  kind: Type.Optional(Type.Union(noticeKinds.map((k) => Type.Literal(k)))),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 500; 100 by default.' })),
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The `nextAfter` of the previous page.' })),
}, { additionalProperties: false });

/** `GET /admin/v1/notices` answer. */
export const NoticeList = Type.Object({ data: Type.Array(NoticeItem), nextAfter: Type.Union([Type.String(), Type.Null()]) });

/** `POST /admin/v1/notices/run` answer. */
export const PassReportSchema = Type.Object({
  planned: Type.Integer({ description: 'Notices newly due (one per client and subject).' }),
  enqueued: Type.Integer({ description: 'Outbox rows written (one per channel and recipient).' }),
  sent: Type.Integer(), retrying: Type.Integer(), failed: Type.Integer(),
});

/** A brownout as the API shows it. */
export const BrownoutItem = Type.Object({
  id: Type.String(), version: Type.String(), endpoint: Type.Union([Type.String(), Type.Null()]),
  startsAt: instant, endsAt: instant,
  client: Type.Union([Type.String(), Type.Null()], { description: 'Set for a rehearsal: only this client is browned out.' }),
  source: Type.Union([Type.Literal('config'), Type.Literal('api')]),
});

/** Body creating a brownout or a rehearsal. */
export const BrownoutBody = Type.Object({
  version: Type.String({ pattern: '^v[0-9]{1,6}$' }),
  endpoint: Type.Optional(Type.String({ pattern: '^(GET|POST|PUT|PATCH|DELETE) /[^\\s]{0,300}$', description: '`METHOD /path/{param}`; the whole version when absent.' })),
  startsAt: instant,
  endsAt: instant,
}, { additionalProperties: false });

/** Path parameters naming a brownout. */
export const BrownoutParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Query of the one-click unsubscribe link. */
export const UnsubscribeQuery = Type.Object({
  client: Type.String({ minLength: 1, maxLength: 100 }),
  contact: Type.String({ minLength: 3, maxLength: 254 }),
  token: Type.String({ minLength: 1, maxLength: 100 }),
}, { additionalProperties: false });
