import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { createSchemaValidator, pickDefined } from '../../../core/config/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { toJson, toMarkdown } from '../../../core/guide/index.ts';
import { DAY_MS } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import { statusOf } from '../../../http/status-table.ts';
import type { BreaksOptions } from '../../lifecycle/breaks/breaks-options.ts';
import { gatherBreaks } from '../../lifecycle/breaks/breaks-data.ts';
import { buildServiceGuide } from '../../lifecycle/guide.ts';
import { listDeprecations } from '../admin/deprecation-list.ts';

/** Who calls a tool: an admin sees every client; anyone else only the client its key belongs to. */
interface ToolCaller {
  admin: boolean;
  /** The client the caller's calls are counted for (the key's client, else the key's id). */
  clientId: string;
}

/** What the tools read: the lifecycle, the bundle and the usage store, through ports only; and the API's title, for the documents a migration guide compares. */
export type ToolContext = BreaksOptions & { title: string };

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
  // Calls counted for an identifier that is no registered client (a key without one, `ip:…`) count as a client too.
  if (
    !(await context.storage.clients.find(asked)) &&
    (await context.storage.usage.clientTotals({ since: 0, clientId: asked })).length === 0
  )
    throw refuse(`No such client: ${asked.slice(0, 60)} is not registered and made no recorded call.`);
  return asked;
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

const name = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, description, errorText: 'must be a version name such as "v1"' });
const clientId = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    errorText: 'must be a client id such as "cl_0123456789abcdef"',
    description: 'Admin keys only: the client (cl_…) to answer for. A consumer key always gets its own client.',
  }),
);
const instant = (description: string) =>
  Type.Optional(
    Type.String({
      minLength: 10,
      maxLength: 40,
      description: `ISO 8601 date or instant; ${description}`,
      errorText: 'must be an ISO 8601 date or instant',
    }),
  );

/** One tool: its name, what it does, its input's JSON Schema, and its handler. */
const tool = <P extends Record<string, TSchema>>(spec: {
  name: string;
  title: string;
  description: string;
  input: P;
  run(context: ToolContext, caller: ToolCaller, input: Static<TObject<P>>): Promise<unknown>;
}) => {
  const input = Type.Object(spec.input, { additionalProperties: false });
  const check = createSchemaValidator(input, { unknownKey: ({ key }) => `${key} is not an input of ${spec.name}` });
  return { ...spec, input, check };
};

const tools = [
  tool({
    name: 'deprecations',
    title: 'Deprecations that affect me',
    description:
      'The deprecated versions, endpoints, fields and query parameters the calling client has called, each with its deprecation and sunset dates, replacement, migration guide URL and the calls counted, and the client’s minimum version with the versions it retires for it (`minimumVersion`, `retiredVersions`: calls to those answer 410). An admin key sees every deprecation with every client’s calls, or one client’s with clientId.',
    input: {
      clientId,
      all: Type.Optional(
        Type.Boolean({
          description: 'Also what the client has not called (with 0 calls): everything deprecated.',
          errorText: 'must be true or false',
        }),
      ),
    },
    // What is deprecated and called by the client (or everything, for an admin who names none).
    async run(context, caller, input) {
      const clientId = await clientFor(context, caller, { asked: input.clientId, all: true });
      await context.flushUsage();
      const deprecations = await listDeprecations({
        runtime: context.runtime,
        usage: context.storage.usage,
        ...(clientId === undefined ? {} : { clientId }),
        ...(input.all === true ? { all: true } : {}),
      });
      return { clientId: clientId ?? null, ...(await minimumOf(context, clientId)), deprecations };
    },
  }),
  tool({
    name: 'what_breaks',
    title: 'What breaks for me',
    description:
      'The breaking changes between two versions that reach the operations the calling client called on the older one in the last 7 days, each with the calls it reaches, plus the deprecated fields and parameters it used. An admin key names the client with clientId.',
    input: {
      from: Type.Optional(name('The version the client calls now (`v1`); by default the one it calls most.')),
      to: Type.Optional(name("The version to move to (`v2`); by default `from`'s replacement, else the newest.")),
      clientId,
    },
    // The portal's "What breaks for me" for one client and one pair of versions.
    async run(context, caller, input) {
      const data = await gatherBreaks(context, {
        clientId: (await clientFor(context, caller, { asked: input.clientId, all: false }))!,
        ...pickDefined(input, ['from', 'to']),
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
    },
  }),
  tool({
    name: 'migration_guide',
    title: 'Migration guide',
    description:
      'The migration guide from a version to its replacement (or to a later version), generated from the two versions’ OpenAPI documents: every breaking change with the behaviour before and after, as Markdown.',
    input: {
      from: name('The version to migrate from (`v1`).'),
      to: Type.Optional(name("A later version (`v2`); by default `from`'s replacement.")),
      format: Type.Optional(
        Type.Union([Type.Literal('markdown'), Type.Literal('json')], {
          description: 'Markdown (default) or the guide as JSON.',
          errorText: 'must be "markdown" or "json"',
        }),
      ),
    },
    async run(context, _caller, input) {
      const guide = buildServiceGuide({
        bundle: context.bundle,
        runtime: context.runtime,
        from: input.from,
        ...(input.to ? { to: input.to } : {}),
        now: context.clock.now(),
        title: context.title,
      });
      return input.format === 'json' ? (JSON.parse(toJson(guide)) as Record<string, unknown>) : toMarkdown(guide);
    },
  }),
  tool({
    name: 'usage',
    title: 'Usage per client',
    description:
      'Admin keys only: the calls of a version (per client and endpoint) or of a deprecated field or query parameter (per client and endpoint), with client names and first and last calls.',
    input: {
      version: Type.Optional(name('The version (`v1`): its calls per client and endpoint.')),
      element: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 400,
          errorText: 'must be a field or query parameter name such as "User.nickname"',
          description:
            'A deprecated field or query parameter (`User.nickname`, `GET /users?order`): its calls per client.',
        }),
      ),
      clientId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Only this client (cl_…).',
          errorText: 'must be a client id',
        }),
      ),
      since: instant('90 days ago by default.'),
      until: instant('exclusive; now by default.'),
    },
    // Calls of a version or of a deprecated element, per client and endpoint.
    async run(context, caller, input) {
      if (!caller.admin)
        throw refuse('usage needs an admin key: a consumer key sees its own calls with deprecations and what_breaks.');
      if (input.version === undefined && input.element === undefined)
        throw refuse('Name a version (`v1`) or a deprecated element (`User.nickname`), or both.');
      const until = input.until === undefined ? context.clock.now() : parseIsoInstant(input.until);
      const since =
        input.since === undefined ? (until ?? 0) - usageLookbackDays * DAY_MS : parseIsoInstant(input.since);
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
      // One entry per client and version, from its first row: the calls summed, the endpoints counted.
      const perClient = new Map<string, (typeof rows)[number] & { endpoints: Map<string, number> }>();
      for (const r of rows) {
        const key = `${r.clientId}\u0000${r.version}`;
        const c = perClient.get(key) ?? { ...r, calls: 0, endpoints: new Map() };
        c.calls += r.calls;
        c.firstSeen = Math.min(c.firstSeen, r.firstSeen);
        c.lastSeen = Math.max(c.lastSeen, r.lastSeen);
        c.endpoints.set(r.endpoint, (c.endpoints.get(r.endpoint) ?? 0) + r.calls);
        perClient.set(key, c);
      }
      const clients = [...perClient.values()]
        .map((c) => ({
          clientId: c.clientId,
          clientName: names.get(c.clientId) ?? null,
          version: c.version,
          calls: c.calls,
          firstSeen: formatIsoInstant(c.firstSeen),
          lastSeen: formatIsoInstant(c.lastSeen),
          endpoints: [...c.endpoints]
            .map(([endpoint, calls]) => ({ endpoint, calls }))
            .sort((a, b) => b.calls - a.calls),
        }))
        .sort((a, b) => b.calls - a.calls || a.clientId.localeCompare(b.clientId));
      // Element calls are kept as all-time totals: the window applies to version calls only.
      const window =
        input.element === undefined ? { since: formatIsoInstant(since), until: formatIsoInstant(until) } : null;
      return { version: input.version ?? null, element: input.element ?? null, window, clients };
    },
  }),
];

/** The tools as `tools/list` answers them. */
export function listTools(): Array<{ name: string; title: string; description: string; inputSchema: object }> {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    // Plain JSON Schema: `errorText` is the validator's own keyword, for the messages above.
    inputSchema: JSON.parse(
      JSON.stringify(t.input, (key, value: unknown) => (key === 'errorText' ? undefined : value)),
    ) as object,
  }));
}

/**
 * Run a tool for `caller`: a bad input, an unknown tool, a refusal or a problem the data raises
 * (an unknown version, say) is an MCP tool error with its reason, never a protocol error.
 */
export async function callTool(
  context: ToolContext,
  caller: ToolCaller,
  call: { name: string; arguments?: Record<string, unknown> | undefined },
): Promise<{
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
}> {
  const refuse = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true as const });
  const tool = tools.find((t) => t.name === call.name);
  if (!tool)
    return refuse(`Unknown tool "${call.name.slice(0, 60)}": use one of ${tools.map((t) => t.name).join(', ')}.`);
  const input = call.arguments ?? {};
  const problems = tool.check.errors(input, '');
  if (problems.length > 0) return refuse(`Invalid input for ${tool.name}: ${problems.join('; ')}.`);
  let data: unknown;
  try {
    data = await tool.run(context, caller, input as never);
  } catch (error) {
    // A refusal, or the data's own problems (an unknown version, a target older than the source): the caller's to fix.
    if (error instanceof VersionaryError && statusOf[error.code] < 500) return refuse(error.detail);
    throw error;
  }
  if (typeof data === 'string') return { content: [{ type: 'text', text: data }] };
  return {
    content: [{ type: 'text', text: JSON.stringify(data, null, 2) }],
    structuredContent: data as Record<string, unknown>,
  };
}
