import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { toProblem } from '../../../http/problem.ts';
import { principalOf } from '../../../kernel/ports/principal.ts';
import { installLine } from '../../storage/peer-packages.ts';
import { callTool, listTools, type ToolContext } from './tools.ts';
import { toolCallParamsError } from './tool-call-params.ts';
import type { ServiceFeature } from '../../host/feature.ts';
import { createDiffCache } from '../../lifecycle/breaks/diff-cache.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';

/** Where the MCP endpoint lives: under the management part's prefix, beside `/admin/v1`. */
const mcpPath = '/admin/mcp';

/**
 * The MCP server for agents at `POST /admin/mcp` (Streamable HTTP, stateless: a server and a
 * transport per request, JSON answers), behind the same credentials as the rest: any valid key
 * or token reaches it, and each tool answers for the caller's own client unless the caller is an
 * admin. `GET` (a stream of server messages) and `DELETE` (a session's end) have nothing to serve
 * without sessions: 405. Its tools: deprecations, what breaks, migration guides and usage.
 */
export const mcpFeature: ServiceFeature<LifecycleContext> = {
  name: 'mcp',
  install({ app, storage, clock, runtime, recorder, operations, bundle, api }) {
    const context: ToolContext = {
      bundle,
      runtime,
      clock,
      prefix: api.prefix,
      title: api.title,
      storage: { clients: storage.clients, usage: storage.usage },
      // Both buffers: what_breaks reads the per-operation counts, the other tools the usage rollups.
      flushUsage: async () => {
        await Promise.all([recorder.flush(), operations?.flush()]);
      },
      // The diff of a pair of versions is the same for every client: computed once per lifecycle state.
      diffs: createDiffCache({ clock, generation: () => runtime.generation() }),
    };
    const version = bundle.versions[bundle.versions.length - 1]?.name ?? 'v1';
    app.post(mcpPath, async (request, reply) => {
      assertHttpShape(request);
      // Before the SDK, which answers these with -32603 and its raw issue list.
      const invalid = toolCallParamsError(request.body);
      if (invalid) return reply.header('cache-control', 'no-store').type('application/json').send(invalid);
      const sdk = await loadSdk();
      // Who calls: the authorization step has already refused a request without credentials.
      const principal = principalOf(request)!;
      const caller = { admin: principal.roles.has('admin'), clientId: principal.clientId ?? principal.id };
      const server = new sdk.Server(
        { name: 'versionary', title: context.title, version },
        {
          capabilities: { tools: {} },
          instructions:
            'Deprecations of this API that affect the calling client, what breaks for it between two versions, migration guides, and (admin keys) usage per client.',
        },
      );
      server.setRequestHandler(sdk.ListTools, () => ({ tools: listTools() }));
      server.setRequestHandler(sdk.CallTool, async (call) => {
        try {
          return await callTool(context, caller, call.params);
        } catch (error) {
          // A failure of the server (storage, say) is logged with the request id, and told without its internals.
          request.log.error({ err: error }, 'MCP tool failed');
          throw new Error(`The tool failed on the server (request ${request.id}); retry later.`);
        }
      });
      const transport = new sdk.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      hijack(request, reply);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        // The reply is the SDK's now: Fastify's error handler can no longer answer.
        request.log.error({ err: error }, 'MCP request failed');
        if (reply.raw.headersSent) reply.raw.end();
        else {
          const { status, body } = toProblem(new VersionaryError(mcpFailed), request.url);
          reply.raw.writeHead(status, { 'content-type': 'application/problem+json' }).end(JSON.stringify(body));
        }
      }
    });
    app.route({
      method: ['GET', 'DELETE'],
      url: mcpPath,
      handler: async () => {
        throw new VersionaryError({
          code: ErrorCode.MethodNotAllowed,
          detail: `The MCP endpoint is stateless: send each JSON-RPC message with POST ${mcpPath}.`,
          headers: { allow: 'POST' },
        });
      },
    });
  },
};

const mcpFailed = { code: ErrorCode.Internal, detail: 'The MCP request failed on the server; retry later.' };
const sdkPackages = ['@modelcontextprotocol/sdk', 'zod'];

type Sdk = Awaited<ReturnType<typeof importSdk>>;

// The SDK is an optional peer: imported on the first MCP request, never at start, so that the
// loop runs without it (and without zod, which it needs).
const importSdk = async () => {
  const [server, transport, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Server: server.Server,
    Transport: transport.StreamableHTTPServerTransport,
    ListTools: types.ListToolsRequestSchema,
    CallTool: types.CallToolRequestSchema,
  };
};

let loaded: Promise<Sdk> | undefined;

async function loadSdk(): Promise<Sdk> {
  loaded ??= importSdk();
  try {
    return await loaded;
  } catch (error) {
    loaded = undefined;
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new VersionaryError({
      code: ErrorCode.PackageMissing,
      detail: `The MCP endpoint needs ${sdkPackages.join(' and ')}, which are not installed. Install them with: ${installLine(sdkPackages)}`,
    });
  }
}

/**
 * The transport's HTTP requirements, refused as problems like every route's rather than as the
 * SDK's JSON-RPC errors: a JSON body (415), and an `Accept` that takes JSON and event streams (406),
 * as the Streamable HTTP transport asks of every client. What is inside the JSON is the SDK's to judge.
 */
function assertHttpShape(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/json\s*(;|$)/.test(type))
    throw new VersionaryError({
      code: ErrorCode.UnsupportedMediaType,
      detail: 'Send each JSON-RPC message as Content-Type: application/json.',
    });
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    throw new VersionaryError({
      code: ErrorCode.NotAcceptable,
      detail: 'The MCP endpoint answers clients that accept both: Accept: application/json, text/event-stream.',
    });
}

/**
 * Hand the raw response to the SDK, with the headers the loop's hooks already set (rate limit,
 * `nosniff`) and those its answers get on the way out, which a hijacked reply skips: the request
 * id, and `no-store` (each answer is the caller's own).
 */
function hijack(request: FastifyRequest, reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
  reply.raw.setHeader('x-request-id', request.id);
  reply.raw.setHeader('cache-control', 'no-store');
  reply.hijack();
}
