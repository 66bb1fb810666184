import type { Static } from '@sinclair/typebox';
import type { scheduleDeprecationSchema, versionDetail } from '../../loop/management/admin/admin-schemas.ts';
import { migrationUrlProblem } from '../../core/text/index.ts';
import { flags, readString, type OptionValues, UsageError } from '../command.ts';
import { defineManagementCommand } from '../management-client.ts';

/** `versionary versions list|deprecate`: the lifecycle, from the database or a running server. */
export const command = defineManagementCommand<Static<typeof versionDetail>>({
  name: 'versions',
  help: `Usage: npx versionary versions list [--server URL --key KEY] [--format text|json]
       npx versionary versions deprecate <version> [--notice-months N | --sunset ISO] [--reason planned|critical-fix]
                                    [--migration-url URL] [--extended-access-until ISO]
                                    [--closed-to-new-clients ISO] [--server URL --key KEY]

On a deprecated version, options left out keep their values: --closed-to-new-clients alone moves
no date, and --notice-months alone announces the deprecation anew from now. A closing date in the
past or before the deprecation is refused.

Without --server the command works on DATABASE_URL (default sqlite:./data/versionary.db) with the
same policy checks as the service; VERSIONARY_CONFIG is read too. With --server it calls the
management API with an admin key (--key or VERSIONARY_KEY).

Exit codes: 0 done, 1 refused (unknown version, policy rule, no replacement), 2 could not run.`,
  options: flags('notice-months sunset reason migration-url extended-access-until closed-to-new-clients'),
  usage: 'list | deprecate <version>',
  actions: {
    list: { call: 'GET /versions' },
    deprecate: {
      needs: ['deprecate needs a version name, e.g. v1'],
      call: 'PUT /versions/{0}/deprecation',
      body: (_, values) => deprecationBody(values),
    },
  },
  columns: {
    version: 'name',
    state: 'state',
    status: 'status',
    deprecated: 'deprecatedAt',
    sunset: 'sunsetAt',
    replacement: 'replacement',
    calls: (r) => String(r.usage?.calls ?? 0),
    clients: (r) => String(r.usage?.clients ?? 0),
  },
});

function deprecationBody(values: OptionValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const months = readString(values, 'notice-months');
  if (months !== undefined) {
    if (!/^[0-9]{1,3}$/.test(months)) throw new UsageError('--notice-months must be a whole number of months');
    body.noticeMonths = Number(months);
  }
  for (const [flag, field] of [
    ['sunset', 'sunsetAt'],
    ['reason', 'reason'],
    ['migration-url', 'migrationUrl'],
    ['extended-access-until', 'extendedAccessUntil'],
    ['closed-to-new-clients', 'closedToNewClientsAt'],
    // Each flag names a field of the route's body schema: a field renamed there fails to compile here.
  ] as const satisfies ReadonlyArray<readonly [string, keyof Static<typeof scheduleDeprecationSchema.body>]>) {
    const value = readString(values, flag);
    if (value !== undefined) body[field] = value;
  }
  const problem = typeof body.migrationUrl === 'string' && migrationUrlProblem(body.migrationUrl, '--migration-url');
  if (problem) throw new UsageError(problem);
  return body;
}
