import { Type, type Static } from '@sinclair/typebox';
import { noticeKinds } from '../../core/notices/index.ts';
import { outboxStatuses } from '../../kernel/ports/notices.ts';
import { count, instant, nullable } from '../host/admin-route-schemas.ts';

const subjectText = Type.String({
  maxLength: 400,
  description:
    '`v1`, `v1 GET /users` for an endpoint, or `v2 User.nickname` for a field (`v2 GET /users?order` for a query parameter).',
});
const kindUnion = () => Type.Union(noticeKinds.map((k) => Type.Literal(k)));
const statusUnion = () => Type.Union(outboxStatuses.map((s) => Type.Literal(s)));

export const NoticeItem = Type.Object({
  id: count(),
  client: Type.String({ maxLength: 200 }),
  subject: subjectText,
  kind: kindUnion(),
  step: Type.String({ maxLength: 64, description: 'Reminder day (`30d`) or brownout id; empty otherwise.' }),
  type: Type.String({ maxLength: 100, description: 'Event type, e.g. `version.sunset_reminder`.' }),
  sunsetAt: instant(),
  channel: Type.String({
    pattern: '^[a-z][a-z0-9-]{0,31}$',
    maxLength: 32,
    description: 'The channel: `email`, `webhook`, or one the app registers.',
  }),
  recipient: Type.String({ maxLength: 254, description: 'Email address, or webhook id.' }),
  status: statusUnion(),
  waitingFor: Type.Union([Type.Literal('mail-transport'), Type.Literal('transport'), Type.Null()], {
    description:
      "Set while this instance has no transport for a pending row's channel: `mail-transport` for email without an SMTP server.",
  }),
  attempts: count(),
  lastError: nullable(Type.String({ maxLength: 2000 })),
  nextAttemptAt: instant(),
  createdAt: instant(),
  updatedAt: instant(),
  sentAt: nullable(instant()),
});

export const NoticeQuery = Type.Object(
  {
    client: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    status: Type.Optional(statusUnion()),
    kind: Type.Optional(kindUnion()),
    limit: Type.Optional(
      Type.Integer({ format: 'int32', minimum: 1, maximum: 500, description: 'Page size, 1 to 500; 100 by default.' }),
    ),
    after: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,15}$', maxLength: 15, description: 'The `nextAfter` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);

export const NoticeList = Type.Object(
  {
    data: Type.Array(NoticeItem, { maxItems: 500 }),
    nextAfter: nullable(
      Type.String({ maxLength: 15, description: 'Pass as `after` for the next page.' }),
      'null on the last page.',
    ),
  },
  { description: 'A page of notices, oldest first' },
);

export const PassReportSchema = Type.Object(
  {
    planned: count('Notices newly due (one per client and subject).'),
    enqueued: count('Outbox rows written (one per channel and recipient).'),
    sent: count('Deliveries that succeeded.'),
    retrying: count('Deliveries to try again later.'),
    failed: count('Deliveries given up.'),
    skipped: Type.Array(
      Type.Object(
        {
          subject: subjectText,
          client: Type.String({ maxLength: 200, description: 'The client id the calls were counted for.' }),
          reason: Type.Union(
            [Type.Literal('no-client'), Type.Literal('no-contact'), Type.Literal('already-enqueued')],
            {
              description:
                'no-client: the calls were made without a registered client (a key with no client, a token subject, an address), so no one can be told; no-contact: the client has neither a contact email nor a webhook; already-enqueued: its rows were in the outbox already.',
            },
          ),
        },
        { description: 'A planned notice that wrote no outbox row' },
      ),
      { maxItems: 100_000, description: 'Planned notices that wrote no outbox row, each with a stable reason code.' },
    ),
  },
  { description: 'What the pass did' },
);

export type PassReport = Static<typeof PassReportSchema>;

export const BrownoutItem = Type.Object(
  {
    id: Type.String({ maxLength: 64 }),
    version: Type.String({ maxLength: 20 }),
    endpoint: nullable(Type.String({ maxLength: 320 })),
    startsAt: instant(),
    endsAt: instant(),
    client: nullable(Type.String({ maxLength: 200 }), 'Set for a rehearsal: only this client is browned out.'),
    target: Type.Object(
      {
        all: Type.Boolean({ description: 'Every client is refused (and calls without a client).' }),
        clients: nullable(
          Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10_000 }),
          'The clients refused and told; fixed when the brownout was planned. null for every client.',
        ),
        calledWithinDays: nullable(
          Type.Integer({ format: 'int32', minimum: 1, maximum: 730 }),
          'Set when `clients` was chosen from usage: those that called the subject in this many days.',
        ),
      },
      { description: 'Whom the brownout refuses. A rehearsal targets its own client.' },
    ),
    source: Type.Union([Type.Literal('config'), Type.Literal('api')]),
  },
  { description: 'A brownout' },
);

/** Every planned brownout; few by nature (each is planned by hand or by a client within limits). */
export const BrownoutList = Type.Object(
  { data: Type.Array(BrownoutItem, { maxItems: 10_000 }) },
  { description: 'Planned brownouts and rehearsals' },
);

const subjectFields = {
  version: Type.String({ pattern: '^v[0-9]{1,6}$', maxLength: 7 }),
  endpoint: Type.Optional(
    Type.String({
      pattern: '^(GET|POST|PUT|PATCH|DELETE) /[^\\s]{0,300}$',
      maxLength: 308,
      description: '`METHOD /path/{param}`; the whole version when absent.',
    }),
  ),
};

const TargetBody = Type.Object(
  {
    all: Type.Optional(Type.Literal(true, { description: 'Every client, and calls without one (the default).' })),
    clients: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 10_000,
        uniqueItems: true,
        description: 'These registered clients only.',
      }),
    ),
    calledWithinDays: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: 730,
        description:
          'The clients that called the subject in this many days, resolved from usage when the brownout is planned and recorded on it.',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'Exactly one of `all`, `clients`, `calledWithinDays`.',
  },
);

const windowFields = { ...subjectFields, startsAt: instant(), endsAt: instant() };

export const RehearsalBody = Type.Object({ ...windowFields }, { additionalProperties: false });

export const BrownoutBody = Type.Object(
  { ...windowFields, target: Type.Optional(TargetBody) },
  { additionalProperties: false },
);

const span = (description: string) => Type.String({ pattern: '^[1-9][0-9]{0,5}[mhdw]$', maxLength: 7, description });

export const BrownoutScheduleBody = Type.Object(
  {
    ...subjectFields,
    steps: Type.Optional(
      Type.Array(
        Type.Object(
          {
            before: span('How long before the sunset the window starts: `30d`, `2w`, `12h`, `90m`.'),
            duration: span('How long it lasts: `1h`, `4h`, `24h`.'),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: 20,
          description: 'By default an hour 30 days before, four hours 14 days before, a day 7 days before.',
        },
      ),
    ),
    target: Type.Optional(TargetBody),
  },
  { additionalProperties: false },
);

export const BrownoutScheduleResult = Type.Object(
  { data: Type.Array(BrownoutItem, { maxItems: 20 }) },
  { description: 'The windows planned, earliest first' },
);

export const BrownoutParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The brownout id (`bo_…`).' }),
});

export const UnsubscribeQuery = Type.Object(
  {
    client: Type.String({ minLength: 1, maxLength: 100 }),
    contact: Type.String({ minLength: 3, maxLength: 254 }),
    token: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
