import type { Static } from '@sinclair/typebox';
import type { ClientSchema } from '../../loop/management/clients/schemas.ts';
import { escapeControls } from '../../core/text/index.ts';
import { flags, readLine, readStrings, type OptionValues, UsageError } from '../command.ts';
import { defineManagementCommand } from '../management-client.ts';

type ClientRow = Static<typeof ClientSchema>;
const needsId = (action: string) => [`${action} needs a client id, e.g. cl_0123456789abcdef`];

/**
 * `versionary clients list|create|show|update|set-minimum|delete`: the API's clients, their
 * contacts, webhooks and minimum version, from the database or a running server.
 */
export const command = defineManagementCommand<ClientRow>({
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
  options: flags('name contact* webhook* keep-webhook* no-webhooks?'),
  usage: 'list | create | show <id> | update <id> | set-minimum <id> <version|none> | delete <id>',
  actions: {
    list: { call: 'GET /clients', pages: true },
    create: {
      call: 'POST /clients',
      body: (_, values) => ({
        name: readLine(values, 'name', 'create needs --name'),
        contacts: readStrings(values, 'contact'),
        webhooks: readStrings(values, 'webhook').map((url) => ({ url })),
      }),
      text: describe,
    },
    show: { needs: needsId('show'), call: 'GET /clients/{0}', text: describe },
    update: {
      needs: needsId('update'),
      call: 'PATCH /clients/{0}',
      body: (_, values) => updateBody(values),
      text: describe,
    },
    'set-minimum': {
      needs: [...needsId('set-minimum'), 'set-minimum needs a version, or none to clear it: set-minimum <id> v2'],
      call: 'PATCH /clients/{0}',
      body: ([, version]) => ({ minimumVersion: version === 'none' ? null : version }),
      text: describe,
    },
    delete: { needs: needsId('delete'), call: 'DELETE /clients/{0}', text: (_, [id]) => `Deleted ${id}.\n` },
  },
  // A --name given to any action is checked: a broken one is refused, not ignored.
  check: (values) => void readLine(values, 'name'),
  extra: ['takes no client id', 'takes one client id'],
  strictFormat: true,
  columns: {
    id: 'id',
    name: 'name',
    contacts: (r) => String(r.contacts.length),
    webhooks: (r) => String(r.webhooks.length),
    minimum: (r) => r.minimumVersion || '-',
    created: 'createdAt',
  },
});

function updateBody(values: OptionValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = readLine(values, 'name');
  const contacts = readStrings(values, 'contact');
  const added = readStrings(values, 'webhook').map((url) => ({ url }));
  const kept = readStrings(values, 'keep-webhook').map((keep) => ({ id: keep }));
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
  return body;
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
