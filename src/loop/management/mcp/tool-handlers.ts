import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { ClientStore, UsageStore } from '../../../kernel/ports/index.ts';
import type { BreaksOptions } from '../../lifecycle/breaks/breaks-options.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import { toJson, toMarkdown } from '../../../core/guide/index.ts';
import { DAY_MS } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import { gatherBreaks } from '../../lifecycle/breaks/breaks-data.ts';
import { buildServiceGuide } from '../../lifecycle/guide.ts';
import { listDeprecations } from '../admin/deprecation-list.ts';

/** Who calls a tool: an admin sees every client; anyone else only the client its key belongs to. */
export interface ToolCaller {
  admin: boolean;
  /** The client the caller's calls are counted for (the key's client, else the key's id). */
  clientId: string;
}

/** What the tools read: the lifecycle, the bundle and the usage store, through ports only. */
export interface ToolContext extends BreaksOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  /** The API's title, for the documents a migration guide compares. */
  title: string;
  storage: { clients: ClientStore; usage: UsageStore };
}

/** A tool's refusal, with its reason: `callTool` answers it as an MCP tool error (`isError: true`). */
const refuse = (detail: string) => new VersionaryError({ code: ErrorCode.ValidationFailed, detail });

const usageLookbackDays = 90;

/**
 * The client a tool answers for, or the refusal: a consumer gets its own client whatever it names
 * (another client's id is refused, never answered); an admin names one, or gets every client's
 * data when `all` allows it.
 */
async function clientFor(
  context: ToolContext,
  caller: ToolCaller,
  { asked, all }: { asked: string | undefined; all: boolean },
): Promise<string | undefined> {
  if (!caller.admin) {
    if (asked !== undefined && asked !== caller.clientId)
      throw refuse(`No such client: a consumer key sees only its own client (${caller.clientId}).`);
    return caller.clientId;
  }
  if (asked === undefined) {
    if (all) return undefined;
    throw refuse('An admin key names the client to answer for: give clientId.');
  }
  if (!(await context.storage.clients.find(asked)) && !(await hasCalls(context, asked)))
    throw refuse(`No such client: ${asked.slice(0, 60)} is not registered and made no recorded call.`);
  return asked;
}

/** Calls counted for an identifier that is no registered client (a key without one, `ip:…`) count as a client too. */
async function hasCalls(context: ToolContext, clientId: string): Promise<boolean> {
  const totals = await context.storage.usage.clientTotals({ since: 0, clientId });
  return totals.length > 0;
}

/** `deprecations`: what is deprecated and called by the client (or everything, for an admin who names none). */
export async function deprecationsTool(
  context: ToolContext,
  caller: ToolCaller,
  input: { clientId?: string; all?: boolean },
): Promise<unknown> {
  const clientId = await clientFor(context, caller, { asked: input.clientId, all: true });
  await context.flushUsage();
  const deprecations = await listDeprecations({
    runtime: context.runtime,
    usage: context.storage.usage,
    ...(clientId === undefined ? {} : { clientId }),
    ...(input.all === true ? { all: true } : {}),
  });
  return { clientId: clientId ?? null, ...(await minimumOf(context, clientId)), deprecations };
}

/**
 * A client's minimum version and the versions it retires for it (its calls to them answer 410
 * `VERSION_RETIRED_FOR_CLIENT`); both empty for every client at once, or a client without one.
 */
async function minimumOf(
  context: ToolContext,
  clientId: string | undefined,
): Promise<{ minimumVersion: string | null; retiredVersions: string[] }> {
  const minimum = clientId === undefined ? undefined : (await context.storage.clients.find(clientId))?.minimumVersion;
  const names = context.runtime.versions().map((v) => v.name);
  const at = minimum === undefined ? -1 : names.indexOf(minimum);
  return { minimumVersion: at === -1 ? null : minimum!, retiredVersions: at === -1 ? [] : names.slice(0, at) };
}

/** `what_breaks`: the portal's "What breaks for me" for one client and one pair of versions. */
export async function whatBreaksTool(
  context: ToolContext,
  caller: ToolCaller,
  input: { from?: string; to?: string; clientId?: string },
): Promise<unknown> {
  const data = await gatherBreaks(context, {
    clientId: (await clientFor(context, caller, { asked: input.clientId, all: false }))!,
    ...(input.from ? { from: input.from } : {}),
    ...(input.to ? { to: input.to } : {}),
  });
  const at = (ms: number) => formatIsoInstant(ms);
  return {
    clientId: data.clientId,
    clientName: data.client?.name ?? null,
    from: data.from,
    to: data.to,
    versions: data.versions,
    window: { since: at(data.since), until: at(data.until) },
    called: data.called.map((c) => ({ ...c, lastSeen: at(c.lastSeen) })),
    changes: data.changes.map((c) => ({
      ...c,
      operations: c.operations.map((o) => ({ ...o, lastSeen: at(o.lastSeen) })),
    })),
    elements: data.elements.map((e) => ({ ...e, sunsetAt: at(e.sunsetAt), lastSeen: at(e.lastSeen) })),
    guideUrl: data.guideUrl ?? null,
    notes: data.notes,
  };
}

/** `migration_guide`: the served guide, as Markdown (or JSON). */
export async function migrationGuideTool(
  context: ToolContext,
  _caller: ToolCaller,
  input: { from: string; to?: string; format?: 'markdown' | 'json' },
): Promise<unknown> {
  const guide = buildServiceGuide({
    bundle: context.bundle,
    runtime: context.runtime,
    from: input.from,
    ...(input.to ? { to: input.to } : {}),
    now: context.clock.now(),
    title: context.title,
  });
  return input.format === 'json' ? (JSON.parse(toJson(guide)) as Record<string, unknown>) : toMarkdown(guide);
}

/** `usage` (admins only): calls of a version or of a deprecated element, per client and endpoint. */
export async function usageTool(
  context: ToolContext,
  caller: ToolCaller,
  input: { version?: string; element?: string; clientId?: string; since?: string; until?: string },
): Promise<unknown> {
  if (!caller.admin)
    throw refuse('usage needs an admin key: a consumer key sees its own calls with deprecations and what_breaks.');
  if (input.version === undefined && input.element === undefined)
    throw refuse('Name a version (`v1`) or a deprecated element (`User.nickname`), or both.');
  const until = input.until === undefined ? context.clock.now() : parseIsoInstant(input.until);
  const since = input.since === undefined ? (until ?? 0) - usageLookbackDays * DAY_MS : parseIsoInstant(input.since);
  if (until === undefined || since === undefined || since >= until)
    throw refuse('since and until must be ISO 8601 dates or instants, since before until.');
  await context.flushUsage();
  const only = input.clientId === undefined ? {} : { clientId: input.clientId };
  const rows =
    input.element === undefined
      ? await context.storage.usage.byClient({ since, until, version: input.version!, ...only })
      : (await context.storage.usage.elementCalls(only)).filter(
          (r) => r.element === input.element && (input.version === undefined || r.version === input.version),
        );
  const names = new Map(
    (await context.storage.clients.findMany(rows.map((r) => r.clientId))).map((c) => [c.id, c.name]),
  );
  const perClient = new Map<
    string,
    { calls: number; firstSeen: number; lastSeen: number; endpoints: Map<string, number> }
  >();
  for (const r of rows) {
    const key = `${r.clientId}\u0000${r.version}`;
    const c = perClient.get(key) ?? { calls: 0, firstSeen: r.firstSeen, lastSeen: r.lastSeen, endpoints: new Map() };
    c.calls += r.calls;
    c.firstSeen = Math.min(c.firstSeen, r.firstSeen);
    c.lastSeen = Math.max(c.lastSeen, r.lastSeen);
    c.endpoints.set(r.endpoint, (c.endpoints.get(r.endpoint) ?? 0) + r.calls);
    perClient.set(key, c);
  }
  const clients = [...perClient]
    .map(([key, c]) => {
      const [clientId, version] = key.split('\u0000') as [string, string];
      return {
        clientId,
        clientName: names.get(clientId) ?? null,
        version,
        calls: c.calls,
        firstSeen: formatIsoInstant(c.firstSeen),
        lastSeen: formatIsoInstant(c.lastSeen),
        endpoints: [...c.endpoints].map(([endpoint, calls]) => ({ endpoint, calls })).sort((a, b) => b.calls - a.calls),
      };
    })
    .sort((a, b) => b.calls - a.calls || a.clientId.localeCompare(b.clientId));
  // Element calls are kept as all-time totals: the window applies to version calls only.
  const window =
    input.element === undefined ? { since: formatIsoInstant(since), until: formatIsoInstant(until) } : null;
  return { version: input.version ?? null, element: input.element ?? null, window, clients };
}
