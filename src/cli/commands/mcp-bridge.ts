import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { toolCallParamsError } from '../../loop/management/mcp/tool-call-params.ts';

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
    // The service's own name, title and version: an agent shows the title to its user.
    { name: info?.name ?? 'versionary', version: info?.version ?? '0', ...(info?.title ? { title: info.title } : {}) },
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
  await local.connect(new StdioServerTransport(screenedStdin(), process.stdout));
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  }).then(async () => {
    await local.close();
    await remote.close();
  });
  return { closed };
}

type RpcError = { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } };

/**
 * Stdin, line by line, with only the lines the SDK can serve: each other line is answered here on
 * stdout with a JSON-RPC error, where the SDK's transport would drop it and leave the agent waiting.
 */
function screenedStdin(): PassThrough {
  const screened = new PassThrough();
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line.trim() === '') continue;
      const refused = refusalOf(line);
      if (refused) process.stdout.write(`${JSON.stringify(refused)}\n`);
      else screened.write(`${line}\n`);
    }
  });
  process.stdin.once('end', () => screened.end());
  return screened;
}

/** The JSON-RPC error for a line the bridge does not forward, or `undefined` for a message it does. */
function refusalOf(line: string): RpcError | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return rpcError(null, -32700, 'Parse error: the line is not JSON; send one JSON-RPC message per line.');
  }
  if (Array.isArray(message))
    return rpcError(
      null,
      -32600,
      'Invalid Request: a batch (an array) is not taken; send one JSON-RPC message per line.',
    );
  if (!JSONRPCMessageSchema.safeParse(message).success) {
    const id = (message as { id?: unknown } | null)?.id;
    return rpcError(
      typeof id === 'string' || typeof id === 'number' ? id : null,
      -32600,
      'Invalid Request: the line is not a JSON-RPC 2.0 message ("jsonrpc": "2.0" with a method, or an id with a result or error).',
    );
  }
  // Checked here as the service checks it: the SDK's own answer is -32603 with its raw issue list.
  return toolCallParamsError(message);
}

function rpcError(id: string | number | null, code: number, message: string): RpcError {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
