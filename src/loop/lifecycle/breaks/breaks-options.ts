import type { Clock } from '../../../core/clock/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { ClientStore, UsageStore } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import type { BreakingChange } from './breaking-change.ts';
import type { DiffCache } from './diff-cache.ts';

/**
 * What "what breaks for me" reads: the versions, their live lifecycle and the client's usage,
 * through ports only. The portal's page and the management part's MCP tools both hand it over.
 */
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
