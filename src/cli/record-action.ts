import { readString, type OptionValues } from './command.ts';
import { UsageError, type CliIo } from './io.ts';
import { runManagementCall, type ManagementClient } from './management-client.ts';

/** What a `list | <create> <arg> | revoke <id>` command over one kind of management record says and sends. */
interface RecordActions<Row> {
  /** The actions, the create action first: `['grant', 'list', 'revoke']`. */
  actions: readonly string[];
  /** The usage error of each action but `list` when its argument is missing. */
  missing: Record<string, string>;
  toRequest: (action: string, arg: string | undefined, values: OptionValues) => Parameters<ManagementClient>[0];
  table: (rows: Row[]) => string;
  describe: (row: Row, revoked: boolean) => string;
}

/**
 * Run one action of a record command (approvals, extendedAccess): the arguments checked, the call made
 * on a server or the database, the answer printed as a table, a record or JSON, or refused.
 */
export async function runRecordAction<Row>(
  given: { values: OptionValues; positionals: readonly string[]; io: CliIo },
  command: RecordActions<Row>,
): Promise<number> {
  const { values, io } = given;
  const [action, arg] = given.positionals;
  if (!command.actions.includes(action ?? ''))
    throw new UsageError(`unknown action "${action}": use ${command.actions.join(', ')}`);
  if (action !== 'list' && !arg) throw new UsageError(command.missing[action!]!);
  if (action === 'list' && arg) throw new UsageError('list takes no argument');
  const format = readString(values, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const request = command.toRequest(action!, arg, values);
  return runManagementCall(
    { values, io },
    (call) => call(request),
    (res) => {
      if (format === 'json') io.stdout(`${JSON.stringify(res.body, null, 2)}\n`);
      else if (action === 'list') io.stdout(command.table((res.body as { data: Row[] }).data));
      else io.stdout(command.describe(res.body as Row, action === 'revoke'));
    },
  );
}
