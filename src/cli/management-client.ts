import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importServiceModule } from '../compose/load-service.ts';
import { loadConfig } from '../loop/settings.ts';
import {
  adminKey,
  flags,
  readString,
  type CliCommand,
  type CliIo,
  type OptionValues,
  ExitCode,
  UsageError,
} from './command.ts';
import { escapeControls } from '../core/text/index.ts';

type ManagementResponse = { status: number; body: unknown };

/** Calls the management API, on a running server or in-process over the database. */
type ManagementClient = (options: { method: string; path: string; body?: unknown }) => Promise<ManagementResponse>;

/**
 * A client for `/admin/v1`: with `--server`, over HTTP with an admin key; without, the service is
 * built in-process over `DATABASE_URL` (nothing listens), so the same policy checks apply either way.
 */
async function createManagementClient(
  values: OptionValues,
  io: CliIo,
): Promise<{ call: ManagementClient; close(): Promise<void> }> {
  const env = io.env ?? {};
  const server = readString(values, 'server');
  if (server) {
    const key = adminKey(values, io);
    const base = server.replace(/\/+$/, '');
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
  const ownKey = randomBytes(24).toString('base64url');
  const config = loadConfig({
    env: { ...env, LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: ownKey },
    readFile: (p) => readFileSync(p, 'utf8'),
  });
  // Imported when used: the commands that only read files run without the service's packages.
  const { openStorage } = await importServiceModule(() => import('../loop/storage/open-storage.ts'), env);
  const { buildApp } = await importServiceModule(() => import('../compose/build-app.ts'));
  const { handlersWithoutTables } = await importServiceModule(() => import('../reference/resources/feature.ts'));
  const { referenceProduct } = await importServiceModule(() => import('../reference/product.ts'));
  const storage = await openStorage(config.database);
  // The management API only: the database may be a loop's, which never holds users and posts.
  const app = await buildApp({
    product: referenceProduct({ handlers: handlersWithoutTables }),
    config,
    storage,
    clock: { now: () => io.now() },
  });
  return {
    call: async ({ method, path, body }) => {
      const res = await app.inject({
        method: method as 'GET',
        url: `/admin/v1${path}`,
        headers: { authorization: `Bearer ${ownKey}` },
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

/** One action of a management command (`clients show <id>`): the call it makes and what it prints. */
interface ManagementAction<Row> {
  /** The usage error when each argument the action takes is missing, in order. */
  needs?: readonly string[];
  /** `METHOD /path` under `/admin/v1`, `{0}` standing for the first argument. */
  call: string;
  /** The query parameters, from the options; those without a value are left out. */
  query?(values: OptionValues): Record<string, string | undefined>;
  /** The body, from the arguments and options; a usage error names the option at fault. */
  body?(args: string[], values: OptionValues): unknown;
  /** Read every page (`meta.nextCursor`), 100 rows at a time, and answer them as one list. */
  pages?: true;
  /** The answer as text, instead of the table of its rows. */
  text?(body: Row, args: string[]): string;
  /** true: the answer is told as JSON only; false: as text, whatever `--format` says. */
  json?: boolean;
}

/**
 * A command over the management API, declared as data: `versionary <name> <action> [args]`, its
 * options, the call each action makes and the columns its answers print in. {@link defineManagementCommand}
 * checks the arguments, makes the call on a server or the database, and prints the answer or the refusal.
 */
interface ManagementCommand<Row> {
  name: string;
  help: string;
  /** The command's own options; `--server`, `--key` and `--format` are every management command's. */
  options: CliCommand['options'];
  /** The arguments as a usage error names them. */
  usage: string;
  /** By name, in the order a usage error lists them. */
  actions: Record<string, ManagementAction<Row>>;
  /** Checks the options of every action before its call. */
  check?(values: OptionValues): void;
  /** The usage error of an argument beyond those the action takes, by its position: `takes no id`. */
  extra?: readonly string[];
  /** Refuse a `--format` other than text and json (else anything but json prints text). */
  strictFormat?: boolean;
  /** The table's columns: a field of the row (printed `-` when absent) or the cell made from it. */
  columns: Record<string, keyof Row | ((row: Row) => string)>;
  /** What an empty list prints instead of the table's head. */
  empty?: string;
}

export function defineManagementCommand<Row>(command: ManagementCommand<Row>): CliCommand {
  const names = Object.keys(command.actions);
  const takes = Object.values(command.actions).map((a) => a.needs?.length ?? 0);
  return {
    name: command.name,
    help: command.help,
    options: { ...flags('server key format'), ...command.options },
    positionals: { min: 1, max: 1 + Math.max(...takes), names: command.usage },
    async run({ values, positionals: [name, ...args], io }) {
      const action = Object.hasOwn(command.actions, name!) ? command.actions[name!]! : undefined;
      if (action === undefined)
        throw new UsageError(`unknown action "${name}": use ${names.join(names.length === 2 ? ' or ' : ', ')}`);
      const missing = action.needs?.find((_, i) => !args[i]);
      if (missing !== undefined) throw new UsageError(missing);
      for (let i = args.length - 1; i >= (action.needs?.length ?? 0); i--)
        if (command.extra?.[i] !== undefined) throw new UsageError(`${name} ${command.extra[i]}`);
      const format = readString(values, 'format') ?? 'text';
      if (command.strictFormat && format !== 'text' && format !== 'json')
        throw new UsageError('--format must be text or json');
      command.check?.(values);
      const [method, template] = action.call.split(' ') as [string, string];
      const argument = (_: string, i: string) => encodeURIComponent(args[Number(i)]!);
      const path = withQuery(template.replace(/\{(\d)\}/g, argument), action.query?.(values) ?? {});
      const body = action.body?.(args, values);
      const client = await createManagementClient(values, io);
      try {
        const res = await (action.pages ? allPages(client.call, path) : client.call({ method, path, body }));
        if (res.status >= 400) return refuse(res, io.stderr);
        const answer = res.body as Row | { data: Row[] };
        if (action.json ?? format === 'json')
          io.stdout(answer === undefined ? '' : `${JSON.stringify(answer, null, 2)}\n`);
        else if (action.text) io.stdout(action.text(answer as Row, args));
        else
          io.stdout(
            table(command, typeof answer === 'object' && answer !== null && 'data' in answer ? answer.data : [answer]),
          );
        return ExitCode.Ok;
      } finally {
        await client.close();
      }
    },
  };
}

async function allPages(call: ManagementClient, path: string): Promise<ManagementResponse> {
  const data: unknown[] = [];
  let cursor: string | undefined;
  do {
    const res = await call({ method: 'GET', path: withQuery(path, { limit: '100', cursor }) });
    if (res.status >= 400) return res;
    const page = res.body as { data: unknown[]; meta: { nextCursor: string | null } };
    data.push(...page.data);
    cursor = page.meta.nextCursor ?? undefined;
  } while (cursor);
  return { status: 200, body: { data } };
}

function table<Row>(command: ManagementCommand<Row>, rows: Row[]): string {
  if (rows.length === 0 && command.empty !== undefined) return command.empty;
  const cells = Object.values(command.columns);
  return formatTable({
    head: Object.keys(command.columns),
    rows: rows.map((row) => cells.map((cell) => (typeof cell === 'function' ? cell(row) : String(row[cell] ?? '-')))),
  });
}

// A refusal names its status, code and detail; a stored `\r` or escape is printed as text, never obeyed.
function refuse(res: ManagementResponse, stderr: (text: string) => void): number {
  const problem = res.body as { detail?: string; code?: string } | undefined;
  stderr(
    `versionary: refused (${res.status}${problem?.code ? ` ${problem.code}` : ''}): ${escapeControls(problem?.detail ?? 'no detail')}\n`,
  );
  return res.status === 401 || res.status === 403 ? ExitCode.Error : ExitCode.Findings;
}

/** `include=revoked` under `--all`: the revoked records too. */
export const revokedToo = (values: OptionValues) => ({ include: values.all === true ? 'revoked' : undefined });

/** Who revoked a record and when, or `-`. */
export function revokedCell(r: { revokedAt: string | null; revokedBy: string | null }): string {
  return r.revokedAt ? `${r.revokedAt} by ${r.revokedBy}` : '-';
}

/** `path?query` with the query parameters given a value. */
function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams(Object.entries(query).filter((p): p is [string, string] => p[1] !== undefined));
  return params.size > 0 ? `${path}?${params}` : path;
}

/**
 * A plain-text table: the head, then one line per row, each column as wide as its widest cell,
 * two spaces between columns, no trailing spaces, and a newline after every line. Cells hold
 * server text: a stored `\r` or terminal escape is printed escaped, never obeyed.
 *
 * @internal exported for the tests
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
