import type { CliCommand } from '../command.ts';
import { approvalsCommand } from './approvals.ts';
import { diffCommand } from './diff.ts';
import { gatewayCommand } from './gateway.ts';
import { guideCommand } from './guide.ts';
import { keysCommand } from './keys.ts';
import { clientsCommand } from './clients.ts';
import { lintCommand } from './lint.ts';
import { noticesCommand } from './notices.ts';
import { serveCommand } from './serve.ts';
import { versionsCommand } from './versions.ts';

/** Every `versionary` command by name. Adding one is a file in this folder plus one line here. */
export const commands: Record<string, CliCommand> = {
  diff: diffCommand,
  lint: lintCommand,
  guide: guideCommand,
  serve: serveCommand,
  gateway: gatewayCommand,
  versions: versionsCommand,
  keys: keysCommand,
  clients: clientsCommand,
  notices: noticesCommand,
  approvals: approvalsCommand,
};
