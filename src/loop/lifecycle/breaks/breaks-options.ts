import type { Clock } from '../../../core/clock/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { ClientStore, UsageStore } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import type { DiffCache } from './diff-cache.ts';

/** What "what breaks for me" reads, through ports only (the portal's page and the MCP tools hand it over). */
export interface BreaksOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  prefix: string;
  storage: { clients: ClientStore; usage: UsageStore };
  /** Write buffered usage first, so the answer counts the latest calls. */
  flushUsage: () => Promise<void>;
  /** The breaking changes per pair of versions, kept between requests; diffed on every request when absent. */
  diffs?: DiffCache<BreakingChange[] | undefined>;
}

export interface BreakingChange {
  text: string;
  rule: string;
  direction: 'request' | 'response';
  /** The called operations it reaches, as usage names them: `GET /users/{id}`, without prefix or version. */
  operations: string[];
  /** The migration guide's entry for it: behaviour before and after, Markdown code spans kept. */
  guide: { oldBehaviour: string; newBehaviour: string };
}
