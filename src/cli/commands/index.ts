import { earlierNames } from '../../core/earlier-names.ts';
import type { CliCommand, CommandEntry } from '../command.ts';

/**
 * Every `versionary` command by name, with its line in the command list. A command's module is
 * imported only when it runs: `diff` then loads the compat core alone, not the config schemas
 * (TypeBox and Ajv, about 0.2 s of CPU at start-up) that `keys` or `versions` read through.
 * Adding one is a file in this folder plus one entry here.
 */
export const commands: Record<string, CommandEntry> = {
  diff: entry('Compare two OpenAPI descriptions and classify each change', () => import('./diff.ts')),
  lint: entry('Check an OpenAPI description against the REST conventions', () => import('./lint.ts')),
  guide: entry('Write a migration guide from two OpenAPI descriptions and lifecycle dates', () => import('./guide.ts')),
  serve: entry('Start the reference service (the same as npm start)', () => import('./serve.ts')),
  gateway: entry('Run the deprecation loop as a reverse proxy in front of any HTTP API', () => import('./gateway.ts')),
  nginx: entry(
    "Render nginx as the gateway's data plane (Lua reading the decision table) from its config",
    () => import('./nginx.ts'),
  ),
  versions: entry(
    'List versions or schedule a deprecation (database or running server)',
    () => import('./versions.ts'),
  ),
  keys: entry('Create an API key in the database', () => import('./keys.ts')),
  clients: entry(
    'Manage clients, their contacts and webhooks (database or running server)',
    () => import('./clients.ts'),
  ),
  notices: entry(
    'List deprecation notices or run one notices pass (database or running server)',
    () => import('./notices.ts'),
  ),
  mcp: entry(
    'Serve the MCP tools of a running service to agents on stdio (deprecations, what breaks, guides)',
    () => import('./mcp.ts'),
  ),
  brownouts: entry(
    'Plan, schedule, list and cancel brownouts of deprecated versions (database or running server)',
    () => import('./brownouts.ts'),
  ),
  approvals: entry(
    'Approve breaking changes by fingerprint, list and revoke approvals (database or running server)',
    () => import('./approvals.ts'),
  ),
  'extended-access': entry(
    'Grant a client extended access past a sunset, list and revoke grants of extended access (database or running server)',
    () => import('./extended-access.ts'),
  ),
};

/** Earlier names of a command, still answered: the first release's name of extended access shipped. */
export const commandAliases: Readonly<Record<string, string>> = { [earlierNames.command]: 'extended-access' };

/** A command's line in the list, and its module (which exports it as `command`), imported when it runs. */
function entry(summary: string, load: () => Promise<{ command: CliCommand }>): CommandEntry {
  return { summary, load: async () => (await load()).command };
}
