import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importServiceModule } from '../compose/load-service.ts';
import { loadConfig } from '../loop/settings.ts';
import { readString, type OptionValues, ExitCode, UsageError, type CliIo } from './command.ts';
import { escapeControls } from '../core/text/index.ts';

export interface ManagementResponse {
  status: number;
  body: unknown;
}

/** Calls the management API, on a running server or in-process over the database. */
export type ManagementClient = (options: {
  method: string;
  path: string;
  body?: unknown;
}) => Promise<ManagementResponse>;

/**
 * A client for `/admin/v1`: with `server`, over HTTP with an admin key; without, the service is
 * built in-process over `DATABASE_URL` (nothing listens), so the same policy checks apply either way.
 */
async function createManagementClient(options: {
  env: Record<string, string | undefined>;
  server?: string;
  key?: string;
  now: () => number;
}): Promise<{ call: ManagementClient; close(): Promise<void> }> {
  if (options.server) {
    const key = options.key ?? options.env.VERSIONARY_KEY;
    if (!key) throw new UsageError('--server needs an admin key: --key <key> or VERSIONARY_KEY');
    const base = options.server.replace(/\/+$/, '');
    return {
      call: async ({ method, path, body }) => {
        const res = await fetch(`${base}/admin/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).catch((error: Error) => {
          throw new UsageError(`cannot reach ${base}: ${error.message}`);
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      },
      close: async () => {},
    };
  }
  // In-process: a throwaway admin key that exists only in this process's memory.
  const adminKey = randomBytes(24).toString('base64url');
  const config = loadConfig({
    env: { ...options.env, LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: adminKey },
    readFile: (p) => readFileSync(p, 'utf8'),
  });
  // Imported when used: the commands that only read files run without the service's packages.
  const { openStorage } = await importServiceModule(() => import('../loop/storage/open-storage.ts'), options.env);
  const { buildApp } = await importServiceModule(() => import('../compose/build-app.ts'));
  const { handlersWithoutTables } = await importServiceModule(() => import('../reference/resources/feature.ts'));
  const { referenceProduct } = await importServiceModule(() => import('../reference/product.ts'));
  const storage = await openStorage(config.database);
  // The management API only: the database may be a loop's, which never holds users and posts.
  const app = await buildApp({
    product: referenceProduct({ handlers: handlersWithoutTables }),
    config,
    storage,
    clock: { now: options.now },
  });
  return {
    call: async ({ method, path, body }) => {
      const res = await app.inject({
        method: method as 'GET',
        url: `/admin/v1${path}`,
        headers: { authorization: `Bearer ${adminKey}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
    },
    close: async () => {
      await app.close();
      await storage.close();
    },
  };
}

/** The options of every command that calls the management API. */
export const managementOptions = {
  server: { type: 'string' },
  key: { type: 'string' },
  format: { type: 'string' },
} as const;

/**
 * One command's management call: the client opened from its `--server` and `--key` (else over the
 * database), the answer handed to `print` or the refusal told, the client closed whatever happens.
 */
export async function runManagementCall(
  given: { values: OptionValues; io: CliIo },
  request: Parameters<ManagementClient>[0] | ((call: ManagementClient) => Promise<ManagementResponse>),
  print: (res: ManagementResponse) => void,
): Promise<number> {
  const server = readString(given.values, 'server');
  const key = readString(given.values, 'key');
  const client = await createManagementClient({
    env: given.io.env ?? {},
    now: () => given.io.now(),
    ...(server ? { server } : {}),
    ...(key ? { key } : {}),
  });
  try {
    const res = await (typeof request === 'function' ? request(client.call) : client.call(request));
    if (res.status >= 400) return refuse(res, given.io.stderr);
    print(res);
    return ExitCode.Ok;
  } finally {
    await client.close();
  }
}

/** The answer as JSON under `--format json`, else `table` of its `data` rows or of the one record it is. */
export function printRows<Row>(
  given: { values: OptionValues; io: CliIo },
  res: ManagementResponse,
  table: (rows: Row[]) => string,
): void {
  if (readString(given.values, 'format') === 'json') given.io.stdout(`${JSON.stringify(res.body, null, 2)}\n`);
  else {
    const body = res.body as Row | { data: Row[] };
    given.io.stdout(table(typeof body === 'object' && body !== null && 'data' in body ? body.data : [body]));
  }
}

// A refusal names its status, code and detail; a stored `\r` or escape is printed as text, never obeyed.
function refuse(res: ManagementResponse, stderr: (text: string) => void): number {
  const problem = res.body as { detail?: string; code?: string } | undefined;
  stderr(
    `versionary: refused (${res.status}${problem?.code ? ` ${problem.code}` : ''}): ${escapeControls(problem?.detail ?? 'no detail')}\n`,
  );
  return res.status === 401 || res.status === 403 ? ExitCode.Error : ExitCode.Findings;
}

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
  return runManagementCall({ values, io }, request, (res) => {
    if (format === 'json') io.stdout(`${JSON.stringify(res.body, null, 2)}\n`);
    else if (action === 'list') io.stdout(command.table((res.body as { data: Row[] }).data));
    else io.stdout(command.describe(res.body as Row, action === 'revoke'));
  });
}

/**
 * A plain-text table: the head, then one line per row, each column as wide as its widest cell,
 * two spaces between columns, no trailing spaces, and a newline after every line. Cells hold
 * server text: a stored `\r` or terminal escape is printed escaped, never obeyed.
 */
export function formatTable(options: { head: readonly string[]; rows: readonly (readonly string[])[] }): string {
  const { head } = options;
  const rows = options.rows.map((row) => row.map(escapeControls));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const lines = [head, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
