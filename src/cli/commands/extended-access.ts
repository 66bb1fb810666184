import type { Static } from '@sinclair/typebox';
import type { grant } from '../../loop/lifecycle/extended-access/schemas.ts';
import { escapeControls } from '../../core/text/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { flags, readLine, readString, type OptionValues, UsageError } from '../command.ts';
import { defineManagementCommand, revokedCell, revokedToo } from '../management-client.ts';

type ExtendedAccessRow = Static<ReturnType<typeof grant>>;

/** `versionary extended-access list|grant|revoke`: extended access for one client past a sunset, within its cap. */
export const command = defineManagementCommand<ExtendedAccessRow>({
  name: 'extended-access',
  help: `Usage: npx versionary extended-access list [--client ID] [--all]
       npx versionary extended-access grant <clientId> --version v1 [--endpoint "GET /users/{id}" | --element NAME]
                                       --until ISO --reason TEXT
       npx versionary extended-access revoke <id>
       (each also takes --server URL --key KEY and --format text|json)

A grant of extended access lets one client keep calling a version (one endpoint of it with --endpoint, or one
deprecated field or parameter with --element, named as the deprecations list names it:
User.nickname, "GET /users/{id}?fields") after its sunset, until its own date: that client's
responses carry its own Sunset, every other client gets the removal. The date must be in the
future and no later than the subject's extendedAccessUntil cap; without a cap nothing can be
granted. list shows the grants of extended access in force (--all adds revoked ones); revoke ends one at once and
keeps the record, with who revoked it and when.

Without --server the command works on DATABASE_URL (default sqlite:./data/versionary.db) and the
grantor is recorded as "admin"; with --server it calls the management API with an admin key
(--key or VERSIONARY_KEY), recorded as that key's name and id.

Exit codes: 0 done, 1 refused (beyond the cap, no cap, unknown client or subject, past date, a
grant already in force for the client and subject, unknown grant), 2 could not run.`,
  options: flags('client version endpoint element until reason all?'),
  usage: 'list | grant <clientId> | revoke <id>',
  actions: {
    list: {
      call: 'GET /extended-access-grants',
      query: (values) => ({ clientId: readString(values, 'client'), ...revokedToo(values) }),
    },
    grant: {
      needs: ['grant needs a client id'],
      call: 'POST /extended-access-grants',
      body: ([clientId], values) => grantBody(clientId!, values),
      text: (row) => describe(row, false),
    },
    revoke: {
      needs: ['revoke needs a grant id'],
      call: 'DELETE /extended-access-grants/{0}',
      text: (row) => describe(row, true),
    },
  },
  extra: ['takes no argument'],
  strictFormat: true,
  columns: {
    id: 'id',
    client: 'clientId',
    subject: subjectOf,
    until: 'until',
    'granted by': 'grantedBy',
    revoked: revokedCell,
    reason: 'reason',
  },
  empty: 'No extended access.\n',
});

function grantBody(clientId: string, values: OptionValues): Record<string, unknown> {
  const version = readString(values, 'version');
  if (!version) throw new UsageError('grant needs --version (with --endpoint or --element for one of its parts)');
  const endpoint = readString(values, 'endpoint');
  const element = readString(values, 'element');
  if (endpoint !== undefined && element !== undefined) throw new UsageError('give --endpoint or --element, not both');
  const until = readString(values, 'until');
  if (!until || parseIsoInstant(until) === undefined)
    throw new UsageError(`grant needs --until, an ISO 8601 date or instant${until ? `, got "${until}"` : ''}`);
  const reason = readLine(values, 'reason', 'grant needs --reason: the record says why the client may stay');
  const subject = endpoint !== undefined ? { endpoint: endpointOf(version, endpoint) } : { version };
  return { clientId, ...subject, ...(element !== undefined ? { element } : {}), until, reason };
}

function endpointOf(version: string, text: string) {
  const match = /^([A-Za-z]+) (\/\S*)$/.exec(text.trim());
  if (!match)
    throw new UsageError(`--endpoint must be a method and a path template, e.g. "GET /users/{id}"; got "${text}"`);
  return { version, method: match[1]!.toUpperCase(), path: match[2]! };
}

function subjectOf(row: ExtendedAccessRow): string {
  if (row.endpoint) return `${row.endpoint.method} ${row.endpoint.path} in ${row.version}`;
  return row.element ? `${row.element} in ${row.version}` : row.version;
}

// Rows come from the server: a stored `\r` or terminal escape is printed as text, never obeyed.
function describe(row: ExtendedAccessRow, revoked: boolean): string {
  const e = (text: string | null) => escapeControls(text ?? '');
  const lines = [
    `${revoked ? 'Revoked' : 'Granted'} ${e(row.id)}: ${e(row.clientId)} may call ${e(subjectOf(row))} until ${e(row.until)}`,
    `  granted by ${e(row.grantedBy)} at ${e(row.grantedAt)}`,
    `  reason: ${e(row.reason)}`,
  ];
  if (row.revokedAt) lines.push(`  revoked by ${e(row.revokedBy)} at ${e(row.revokedAt)}`);
  return `${lines.join('\n')}\n`;
}
