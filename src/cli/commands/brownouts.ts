import type { Static } from '@sinclair/typebox';
import type { BrownoutItem } from '../../loop/notices/schemas.ts';
import { flags, readString, type OptionValues, UsageError } from '../command.ts';
import { defineManagementCommand } from '../management-client.ts';

/** `versionary brownouts list|add|schedule|remove`: planned brownouts, from the database or a running server. */
export const command = defineManagementCommand<Static<typeof BrownoutItem>>({
  name: 'brownouts',
  help: `Usage: npx versionary brownouts list [--format text|json]
       npx versionary brownouts add --version v1 [--endpoint "GET /users"] --starts ISO --ends ISO [TARGET]
       npx versionary brownouts schedule --version v1 [--endpoint "GET /users"] [--step 30d:1h ...] [TARGET]
       npx versionary brownouts remove ID
       (each with [--server URL --key KEY])

TARGET, whom the brownout refuses (every client by default):
  --clients ID,ID            these clients only
  --called-within-days N     the clients that called the version (or endpoint) in the last N days,
                             resolved now and recorded on the brownout

"schedule" plans windows counted back from the sunset, one per --step BEFORE:DURATION (by default
30d:1h, 14d:4h and 7d:24h); none is planned when one is in the past or overlaps another brownout.
Without --server it works in-process on DATABASE_URL with the service's configuration.

Exit codes: 0 done, 1 refused (bad window or target), 2 could not run.`,
  options: flags('version endpoint starts ends step* clients called-within-days'),
  usage: 'list | add | schedule | remove ID',
  actions: {
    list: { call: 'GET /brownouts' },
    add: { call: 'POST /brownouts', body: (_, values) => bodyOf('add', values) },
    schedule: { call: 'POST /brownout-schedules', body: (_, values) => bodyOf('schedule', values) },
    remove: {
      needs: ['remove needs the brownout id'],
      call: 'DELETE /brownouts/{0}',
      text: (_, [id]) => `removed ${id}\n`,
      json: false,
    },
  },
  extra: ['takes no id'],
  columns: {
    id: 'id',
    subject: (r) => (r.endpoint ? `${r.version} ${r.endpoint}` : r.version),
    starts: 'startsAt',
    ends: 'endsAt',
    target: (r) =>
      r.client
        ? `rehearsal of ${r.client}`
        : r.target.all
          ? 'all'
          : `${r.target.clients?.join(',') ?? ''}${r.target.calledWithinDays ? ` (called within ${r.target.calledWithinDays}d)` : ''}`,
    source: 'source',
  },
});

/** The body of `add` or `schedule` from the options; usage errors name the option at fault. */
function bodyOf(action: 'add' | 'schedule', values: OptionValues): Record<string, unknown> {
  const version = readString(values, 'version');
  if (!version) throw new UsageError(`${action} needs --version (the version to brown out, e.g. v1)`);
  const endpoint = readString(values, 'endpoint');
  const body: Record<string, unknown> = { version, ...(endpoint ? { endpoint } : {}) };
  const clients = readString(values, 'clients');
  const days = readString(values, 'called-within-days');
  if (clients && days) throw new UsageError('give --clients or --called-within-days, not both');
  if (clients) body.target = { clients: clients.split(',').map((c) => c.trim()) };
  if (days) {
    if (!/^[0-9]{1,4}$/.test(days)) throw new UsageError('--called-within-days must be a whole number of days');
    body.target = { calledWithinDays: Number(days) };
  }
  if (action === 'add') {
    const [startsAt, endsAt] = [readString(values, 'starts'), readString(values, 'ends')];
    if (!startsAt || !endsAt) throw new UsageError('add needs --starts and --ends (ISO 8601 instants)');
    return { ...body, startsAt, endsAt };
  }
  const steps = values.step as string[] | undefined;
  if (steps)
    body.steps = steps.map((s) => {
      const [before, duration, extra] = s.split(':');
      if (!before || !duration || extra !== undefined)
        throw new UsageError(`--step must be BEFORE:DURATION, such as 30d:1h (got ${s})`);
      return { before, duration };
    });
  return body;
}
