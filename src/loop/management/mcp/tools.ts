import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { createSchemaValidator } from '../../../core/config/index.ts';
import { VersionaryError } from '../../../core/errors/index.ts';
import { statusOf } from '../../../http/status-table.ts';
import {
  deprecationsTool,
  migrationGuideTool,
  usageTool,
  whatBreaksTool,
  type ToolCaller,
  type ToolContext,
} from './tool-handlers.ts';

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

const DeprecationsInput = Type.Object(
  {
    clientId,
    all: Type.Optional(
      Type.Boolean({
        description: 'Also what the client has not called (with 0 calls): everything deprecated.',
        errorText: 'must be true or false',
      }),
    ),
  },
  { additionalProperties: false },
);
const WhatBreaksInput = Type.Object(
  {
    from: Type.Optional(name('The version the client calls now (`v1`); by default the one it calls most.')),
    to: Type.Optional(name("The version to move to (`v2`); by default `from`'s replacement, else the newest.")),
    clientId,
  },
  { additionalProperties: false },
);
const MigrationGuideInput = Type.Object(
  {
    from: name('The version to migrate from (`v1`).'),
    to: Type.Optional(name("A later version (`v2`); by default `from`'s replacement.")),
    format: Type.Optional(
      Type.Union([Type.Literal('markdown'), Type.Literal('json')], {
        description: 'Markdown (default) or the guide as JSON.',
        errorText: 'must be "markdown" or "json"',
      }),
    ),
  },
  { additionalProperties: false },
);
const UsageInput = Type.Object(
  {
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
  { additionalProperties: false },
);

/** One tool: its name, what it does, its input's JSON Schema, and its handler. */
interface ToolSpec<S extends TSchema> {
  name: string;
  title: string;
  description: string;
  input: S;
  run(context: ToolContext, caller: ToolCaller, input: Static<S>): Promise<unknown>;
}

const spec = <S extends TSchema>(tool: ToolSpec<S>) => ({
  ...tool,
  check: createSchemaValidator(tool.input, { unknownKey: ({ key }) => `${key} is not an input of ${tool.name}` }),
});

const tools = [
  spec({
    name: 'deprecations',
    title: 'Deprecations that affect me',
    description:
      'The deprecated versions, endpoints, fields and query parameters the calling client has called, each with its deprecation and sunset dates, replacement, migration guide URL and the calls counted, and the client’s minimum version with the versions it retires for it (`minimumVersion`, `retiredVersions`: calls to those answer 410). An admin key sees every deprecation with every client’s calls, or one client’s with clientId.',
    input: DeprecationsInput,
    run: deprecationsTool,
  }),
  spec({
    name: 'what_breaks',
    title: 'What breaks for me',
    description:
      'The breaking changes between two versions that reach the operations the calling client called on the older one in the last 7 days, each with the calls it reaches, plus the deprecated fields and parameters it used. An admin key names the client with clientId.',
    input: WhatBreaksInput,
    run: whatBreaksTool,
  }),
  spec({
    name: 'migration_guide',
    title: 'Migration guide',
    description:
      'The migration guide from a version to its replacement (or to a later version), generated from the two versions’ OpenAPI documents: every breaking change with the behaviour before and after, as Markdown.',
    input: MigrationGuideInput,
    run: migrationGuideTool,
  }),
  spec({
    name: 'usage',
    title: 'Usage per client',
    description:
      'Admin keys only: the calls of a version (per client and endpoint) or of a deprecated field or query parameter (per client and endpoint), with client names and first and last calls.',
    input: UsageInput,
    run: usageTool,
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
