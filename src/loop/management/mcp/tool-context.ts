import type { Clock } from '../../../core/clock/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { ClientStore, UsageStore } from '../../../kernel/ports/index.ts';
import type { BreaksOptions } from '../../lifecycle/breaks/breaks-options.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';

/** Who calls a tool: an admin sees every client; anyone else only the client its key belongs to. */
export interface ToolCaller {
  admin: boolean;
  /** The client the caller's calls are counted for (the key's client, else the key's id). */
  clientId: string;
}

/** What the tools read: the lifecycle, the bundle and the usage store, through ports only. */
export interface ToolContext extends BreaksOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  /** The API's title, for the documents a migration guide compares. */
  title: string;
  storage: { clients: ClientStore; usage: UsageStore };
}

/** A tool's answer: its data, or the reason it refused (an MCP tool error, `isError: true`). */
export type ToolOutcome = { data: unknown } | { refused: string };
