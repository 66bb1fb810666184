import { defineCommand, readString, UsageError } from '../command.ts';
import { formatTable, managementOptions, printRows, runManagementCall } from '../management-client.ts';

interface NoticeRow {
  id: number;
  client: string;
  subject: string;
  kind: string;
  step: string;
  channel: string;
  recipient: string;
  status: string;
  waitingFor: string | null;
  attempts: number;
  lastError: string | null;
}

/** `versionary notices list|run`: the notices outbox, from the database or a running server. */
export const noticesCommand = defineCommand({
  name: 'notices',
  help: `Usage: npx versionary notices list [--client ID] [--status pending|sent|retrying|failed|unsubscribed] [--kind KIND]
                              [--server URL --key KEY] [--format text|json]
       npx versionary notices run [--server URL --key KEY]

"run" plans the notices now due, writes them to the outbox and delivers what it can (after
flushing buffered usage). Without --server it works in-process on DATABASE_URL with the same
configuration as the service (VERSIONARY_CONFIG, VERSIONARY_SMTP_URL, ...).

Exit codes: 0 done, 1 refused (bad filter), 2 could not run.`,
  options: {
    ...managementOptions,
    client: { type: 'string' },
    status: { type: 'string' },
    kind: { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: 'list | run' },
  async run({ values, positionals, io }) {
    const [action] = positionals;
    if (action !== 'list' && action !== 'run') throw new UsageError(`unknown action "${action}": use list or run`);
    const query = new URLSearchParams();
    for (const name of ['client', 'status', 'kind'] as const) {
      const value = readString(values, name);
      if (value !== undefined) query.set(name, value);
    }
    const request =
      action === 'run'
        ? { method: 'POST', path: '/notices/run' }
        : { method: 'GET', path: `/notices${query.size > 0 ? `?${query.toString()}` : ''}` };
    // What `run` did is told as JSON only.
    const shown = action === 'run' ? { format: 'json' } : values;
    return runManagementCall({ values, io }, request, (res) => printRows({ values: shown, io }, res, table));
  },
});

function table(rows: NoticeRow[]): string {
  const head = ['id', 'client', 'subject', 'kind', 'channel', 'recipient', 'status', 'attempts', 'last error'];
  const lines = rows.map((r) => [
    String(r.id),
    r.client,
    r.subject,
    r.step ? `${r.kind} ${r.step}` : r.kind,
    r.channel,
    r.recipient,
    r.waitingFor ? `${r.status} (waiting for ${r.waitingFor})` : r.status,
    String(r.attempts),
    r.lastError ?? '-',
  ]);
  return formatTable({ head, rows: lines });
}
