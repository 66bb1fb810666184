import type { Static } from '@sinclair/typebox';
import type { NoticeItem } from '../../loop/notices/schemas.ts';
import { flags, readString } from '../command.ts';
import { defineManagementCommand } from '../management-client.ts';

/** `versionary notices list|run`: the notices outbox, from the database or a running server. */
export const command = defineManagementCommand<Static<typeof NoticeItem>>({
  name: 'notices',
  help: `Usage: npx versionary notices list [--client ID] [--status pending|sent|retrying|failed|unsubscribed] [--kind KIND]
                              [--server URL --key KEY] [--format text|json]
       npx versionary notices run [--server URL --key KEY]

"run" plans the notices now due, writes them to the outbox and delivers what it can (after
flushing buffered usage). Without --server it works in-process on DATABASE_URL with the same
configuration as the service (VERSIONARY_CONFIG, VERSIONARY_SMTP_URL, ...).

Exit codes: 0 done, 1 refused (bad filter), 2 could not run.`,
  options: flags('client status kind'),
  usage: 'list | run',
  actions: {
    list: {
      call: 'GET /notices',
      query: (values) => ({
        client: readString(values, 'client'),
        status: readString(values, 'status'),
        kind: readString(values, 'kind'),
      }),
    },
    // What `run` did is told as JSON only.
    run: { call: 'POST /notices/run', json: true },
  },
  columns: {
    id: 'id',
    client: 'client',
    subject: 'subject',
    kind: (r) => (r.step ? `${r.kind} ${r.step}` : r.kind),
    channel: 'channel',
    recipient: 'recipient',
    status: (r) => (r.waitingFor ? `${r.status} (waiting for ${r.waitingFor})` : r.status),
    attempts: 'attempts',
    'last error': 'lastError',
  },
});
