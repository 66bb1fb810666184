import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * Connect to the service's MCP endpoint with `key` (failing here when it cannot be reached or
 * refuses the key), then serve its tools on stdio: `tools/list` and `tools/call` are forwarded.
 * `closed` settles when stdin ends.
 */
export async function startBridge(options: { endpoint: URL; key: string }): Promise<{ closed: Promise<void> }> {
  const remote = new Client({ name: 'versionary-mcp-bridge', version: '1.0.0' });
  await remote.connect(
    new StreamableHTTPClientTransport(options.endpoint, {
      requestInit: { headers: { authorization: `Bearer ${options.key}` } },
    }),
  );
  const info = remote.getServerVersion();
  const instructions = remote.getInstructions();
  const local = new Server(
    { name: info?.name ?? 'versionary', version: info?.version ?? '0' },
    { capabilities: { tools: {} }, ...(instructions ? { instructions } : {}) },
  );
  local.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  local.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await remote.callTool(request.params);
    } catch (error) {
      // The service went away or refused the call: the agent reads why, as the tool's error.
      const message = error instanceof Error ? error.message : String(error);
      return {
        content: [{ type: 'text', text: `The call to ${options.endpoint.href} failed: ${message}` }],
        isError: true,
      };
    }
  });
  await local.connect(new StdioServerTransport());
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  }).then(async () => {
    await local.close();
    await remote.close();
  });
  return { closed };
}
