import type { CliCommand } from '../command.ts';
import { diffCommand } from './diff.ts';
import { guideCommand } from './guide.ts';
import { lintCommand } from './lint.ts';

/**
 * Every `versionary` command by name. Adding one is a file in this folder plus one line here.
 *
 * @example
 * ```ts
 * commands.diff.summary;
 * ```
 */
export const commands: Record<string, CliCommand> = {
  diff: diffCommand,
  lint: lintCommand,
  guide: guideCommand,
};
