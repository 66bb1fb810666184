import { earlierNames } from '../../core/earlier-names.ts';
import type { CommandEntry } from '../command.ts';

/**
 * Every `versionary` command by name, with its line in the command list. A command's module is
 * imported only when it runs: `diff` then loads the compat core alone, not the config schemas
 * (TypeBox and Ajv, about 0.2 s of CPU at start-up) that `keys` or `versions` read through.
 * Adding one is a file in this folder plus one entry here.
 */
export const commands: Record<string, CommandEntry> = {
  diff: {
    summary: 'Compare two OpenAPI descriptions and classify each change',
    load: async () => (await import('./diff.ts')).diffCommand,
  },
  lint: {
    summary: 'Check an OpenAPI description against the REST conventions',
    load: async () => (await import('./lint.ts')).lintCommand,
  },
  guide: {
    summary: 'Write a migration guide from two OpenAPI descriptions and lifecycle dates',
    load: async () => (await import('./guide.ts')).guideCommand,
  },
  serve: {
    summary: 'Start the reference service (the same as npm start)',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  gateway: {
    summary: 'Run the deprecation loop as a reverse proxy in front of any HTTP API',
    load: async () => (await import('./gateway.ts')).gatewayCommand,
  },
  nginx: {
    summary: "Render nginx as the gateway's data plane (Lua reading the decision table) from its config",
    load: async () => (await import('./nginx.ts')).nginxCommand,
  },
  versions: {
    summary: 'List versions or schedule a deprecation (database or running server)',
    load: async () => (await import('./versions.ts')).versionsCommand,
  },
  keys: {
    summary: 'Create an API key in the database',
    load: async () => (await import('./keys.ts')).keysCommand,
  },
  clients: {
    summary: 'Manage clients, their contacts and webhooks (database or running server)',
    load: async () => (await import('./clients.ts')).clientsCommand,
  },
  notices: {
    summary: 'List deprecation notices or run one notices pass (database or running server)',
    load: async () => (await import('./notices.ts')).noticesCommand,
  },
  mcp: {
    summary: 'Serve the MCP tools of a running service to agents on stdio (deprecations, what breaks, guides)',
    load: async () => (await import('./mcp.ts')).mcpCommand,
  },
  brownouts: {
    summary: 'Plan, schedule, list and cancel brownouts of deprecated versions (database or running server)',
    load: async () => (await import('./brownouts.ts')).brownoutsCommand,
  },
  approvals: {
    summary: 'Approve breaking changes by fingerprint, list and revoke approvals (database or running server)',
    load: async () => (await import('./approvals.ts')).approvalsCommand,
  },
  'extended-access': {
    summary:
      'Grant a client extended access past a sunset, list and revoke grants of extended access (database or running server)',
    load: async () => (await import('./extended-access.ts')).extendedAccessCommand,
  },
};

/** Earlier names of a command, still answered: the first release's name of extended access shipped. */
export const commandAliases: Readonly<Record<string, string>> = { [earlierNames.command]: 'extended-access' };
