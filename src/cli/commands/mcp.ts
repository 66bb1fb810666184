import { escapeControls } from '../../core/text/index.ts';
import { type CliCommand, readString, ExitCode, UsageError } from '../command.ts';

const sdkPackages = '@modelcontextprotocol/sdk zod';

/**
 * `versionary mcp`: the service's MCP server on stdio, for agents that start their tools as
 * processes. A bridge: the tools are the server's own (`/admin/mcp`), listed and called there
 * with the key, so they are defined once and always match the server's version.
 */
export const command: CliCommand = {
  name: 'mcp',
  help: `Usage: npx versionary mcp --server URL [--key KEY]

The MCP server of a running Versionary service (or gateway) on stdin and stdout, for an agent
that starts its tools as processes (Claude Desktop, VS Code, Cursor...). It speaks to the
service's MCP endpoint (URL/admin/mcp, Streamable HTTP) with the key, and offers the same tools:
  deprecations      what is deprecated that this client calls, with dates, replacements, guides
  what_breaks       the breaking changes between two versions that reach this client's calls
  migration_guide   the migration guide from a version to its replacement, as Markdown
  usage             (admin keys) calls of a version or field per client
A consumer key sees its own client only; an admin key sees every client. See docs/machines.md.

Options:
  --server URL   the service's base URL, e.g. https://api.example.com (without /admin/mcp)
  --key KEY      the API key; VERSIONARY_KEY by default, which keeps it out of process lists

At start it connects once: an unreachable server, a refused key or a service without the MCP
endpoint is a message on stderr and exit code 2, before anything is read from stdin. Afterwards a
failed call is a tool error the agent sees. Only JSON-RPC goes to stdout; messages go to stderr.
Needs ${sdkPackages} (npm install ${sdkPackages}).

Exit codes: 0 stdin closed, 2 could not start.`,
  options: { server: { type: 'string' }, key: { type: 'string' } },
  positionals: { min: 0, max: 0, names: 'no arguments' },
  async run({ values, io }) {
    const server = readString(values, 'server');
    if (!server) throw new UsageError('--server URL is required: the base URL of the running service');
    if (!/^https?:\/\/[^/\s]+/.test(server)) throw new UsageError(`--server must be an http(s) URL (got ${server})`);
    const key = readString(values, 'key') ?? io.env?.VERSIONARY_KEY;
    if (!key) throw new UsageError('a key is needed: --key KEY or VERSIONARY_KEY');
    const endpoint = new URL(`${server.replace(/\/+$/, '')}/admin/mcp`);
    const { startBridge } = await import('./mcp-bridge.ts').catch((error: unknown) => {
      if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
        throw new UsageError(`needs ${sdkPackages}, which are not installed: npm install ${sdkPackages}`);
      throw error;
    });
    const bridge = await startBridge({ endpoint, key }).catch((error: unknown) => {
      io.stderr(`versionary mcp: ${escapeControls(describeConnectFailure(error, endpoint))}\n`);
      return undefined;
    });
    if (!bridge) return ExitCode.Error;
    io.stderr(`versionary mcp: serving the tools of ${endpoint.href} on stdio\n`);
    await bridge.closed;
    return ExitCode.Ok;
  },
};

/** Why the first connection failed, in one line: unreachable, refused key, no endpoint, or the server's problem. */
function describeConnectFailure(error: unknown, endpoint: URL): string {
  const status = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const body = message.indexOf('{');
  let detail = message;
  if (body >= 0) {
    try {
      detail = String((JSON.parse(message.slice(body)) as { detail?: unknown }).detail ?? message);
    } catch {
      // Not a problem body: the message as it is.
    }
  }
  if (typeof status !== 'number' || status < 0) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return `cannot reach ${endpoint.origin}: ${cause ?? message}`;
  }
  if (status === 401 || status === 403) return `the server refused the key (${status}): ${detail}`;
  if (status === 404) return `no MCP endpoint at ${endpoint.href} (404): is it a Versionary service with mcp on?`;
  return `${endpoint.href} answered ${status}: ${detail}`;
}
