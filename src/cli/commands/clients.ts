import { escapeControls, singleLineTextProblem } from '../../core/text/index.ts';
import { defineCommand, readString, readStrings, type OptionValues, UsageError } from '../command.ts';
import { formatTable, managementOptions, runManagementCall, type ManagementResponse } from '../management-client.ts';

interface ClientRow {
  id: string;
  name: string;
  contacts: Array<{ email: string; subscribed: boolean }>;
  webhooks: Array<{ id: string; url: string; secret?: string }>;
  minimumVersion?: string | null;
  createdAt: string;
}
const actions = ['list', 'create', 'show', 'update', 'set-minimum', 'delete'] as const;

/**
 * `versionary clients list|create|show|update|set-minimum|delete`: the API's clients, their
 * contacts, webhooks and minimum version, from the database or a running server.
 */
export const clientsCommand = defineCommand({
  name: 'clients',
  help: `Usage: npx versionary clients list [--format text|json]
       npx versionary clients create --name NAME [--contact EMAIL]... [--webhook URL]...
       npx versionary clients show <id>
       npx versionary clients update <id> [--name NAME] [--contact EMAIL]... [--webhook URL]... [--keep-webhook ID]... [--no-webhooks]
       npx versionary clients set-minimum <id> <version|none>
       npx versionary clients delete <id>
       (each also takes --server URL --key KEY and --format text|json)

Without --server the command works on DATABASE_URL (default sqlite:./data/versionary.db) with the
same checks as the service (VERSIONARY_CONFIG is read too, for webhooks.allowPrivateTargets); with
--server it calls the management API with an admin key (--key or VERSIONARY_KEY).

update replaces what it is given: --contact replaces the contacts (addresses already listed keep
their subscription); --webhook adds new webhooks and --keep-webhook keeps existing ones, the
others are removed once either is given; --no-webhooks removes them all. A new webhook's signing
secret is printed once.

set-minimum retires the versions before <version> for this client alone, once it has migrated: its
calls to them answer 410 VERSION_RETIRED_FOR_CLIENT, with a Link to <version>. none clears it. A
version the API does not know is refused.

Exit codes: 0 done, 1 refused (unknown client or version, bad address or URL, keys still active), 2 could not run.`,
  options: {
    ...managementOptions,
    name: { type: 'string' },
    contact: { type: 'string', multiple: true },
    webhook: { type: 'string', multiple: true },
    'keep-webhook': { type: 'string', multiple: true },
    'no-webhooks': { type: 'boolean' },
  },
  positionals: {
    min: 1,
    max: 3,
    names: 'list | create | show <id> | update <id> | set-minimum <id> <version|none> | delete <id>',
  },
  async run({ values, positionals, io }) {
    const [action, id, version] = positionals;
    if (!(actions as readonly string[]).includes(action ?? ''))
      throw new UsageError(`unknown action "${action}": use ${actions.join(', ')}`);
    if (['show', 'update', 'set-minimum', 'delete'].includes(action!) && !id)
      throw new UsageError(`${action} needs a client id, e.g. cl_0123456789abcdef`);
    if (action === 'set-minimum' && !version)
      throw new UsageError('set-minimum needs a version, or none to clear it: set-minimum <id> v2');
    if (action !== 'set-minimum' && version !== undefined) throw new UsageError(`${action} takes one client id`);
    if (['list', 'create'].includes(action!) && id) throw new UsageError(`${action} takes no client id`);
    const format = readString(values, 'format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
    const request =
      action === 'set-minimum'
        ? {
            method: 'PATCH',
            path: `/clients/${encodeURIComponent(id!)}`,
            body: { minimumVersion: version === 'none' ? null : version },
          }
        : toRequest(action!, id, values);
    return runManagementCall({ values, io }, action === 'list' ? listAll : request, (res) => {
      if (format === 'json') io.stdout(res.body === undefined ? '' : `${JSON.stringify(res.body, null, 2)}\n`);
      else if (action === 'delete') io.stdout(`Deleted ${id}.\n`);
      else if (action === 'list') io.stdout(table((res.body as { data: ClientRow[] }).data));
      else io.stdout(describe(res.body as ClientRow));
    });
  },
});

function toRequest(
  action: string,
  id: string | undefined,
  values: OptionValues,
): { method: string; path: string; body?: unknown } {
  const path = id ? `/clients/${encodeURIComponent(id)}` : '/clients';
  const name = readString(values, 'name');
  const problem = name === undefined ? undefined : singleLineTextProblem(name, '--name');
  if (problem) throw new UsageError(problem);
  const contacts = readStrings(values, 'contact');
  const added = readStrings(values, 'webhook').map((url) => ({ url }));
  const kept = readStrings(values, 'keep-webhook').map((keep) => ({ id: keep }));
  if (action === 'create') {
    if (!name) throw new UsageError('create needs --name');
    return { method: 'POST', path, body: { name, contacts, webhooks: added } };
  }
  if (action === 'update') {
    const body: Record<string, unknown> = {};
    if (name !== undefined) body.name = name;
    if (contacts.length > 0) body.contacts = contacts;
    if (values['no-webhooks'] === true) {
      if (added.length + kept.length > 0)
        throw new UsageError('--no-webhooks cannot be combined with --webhook or --keep-webhook');
      body.webhooks = [];
    } else if (added.length + kept.length > 0) body.webhooks = [...kept, ...added];
    if (Object.keys(body).length === 0)
      throw new UsageError(
        'update needs something to change: --name, --contact, --webhook, --keep-webhook or --no-webhooks',
      );
    return { method: 'PATCH', path, body };
  }
  return { method: action === 'delete' ? 'DELETE' : 'GET', path };
}

async function listAll(
  call: (options: { method: string; path: string }) => Promise<ManagementResponse>,
): Promise<ManagementResponse> {
  const data: ClientRow[] = [];
  let cursor: string | null = null;
  do {
    const res = await call({
      method: 'GET',
      path: `/clients?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    });
    if (res.status >= 400) return res;
    const page = res.body as { data: ClientRow[]; meta: { nextCursor: string | null } };
    data.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return { status: 200, body: { data } };
}

function describe(c: ClientRow): string {
  // Names come from the server: a stored `\r` or terminal escape is printed as text, never obeyed.
  const lines = [`${c.id}  ${escapeControls(c.name)}  (created ${c.createdAt})`];
  for (const contact of c.contacts)
    lines.push(`  contact  ${contact.email}${contact.subscribed ? '' : '  (unsubscribed)'}`);
  for (const w of c.webhooks) lines.push(`  webhook  ${w.id}  ${w.url}`);
  if (c.minimumVersion)
    lines.push(`  minimum version  ${escapeControls(c.minimumVersion)} (older versions answer it 410)`);
  const secrets = c.webhooks.filter((w) => w.secret);
  if (secrets.length > 0) {
    lines.push('', 'Signing secrets, shown only this once; store them now:');
    for (const w of secrets) lines.push(`  ${w.id}  ${w.secret}`);
  }
  return `${lines.join('\n')}\n`;
}

function table(rows: ClientRow[]): string {
  const head = ['id', 'name', 'contacts', 'webhooks', 'minimum', 'created'];
  const lines = rows.map((r) => [
    r.id,
    r.name,
    String(r.contacts.length),
    String(r.webhooks.length),
    r.minimumVersion || '-',
    r.createdAt,
  ]);
  return formatTable({ head, rows: lines });
}
