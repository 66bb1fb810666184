import type { Clock } from '../../../core/clock/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { ClientStore, UsageStore } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
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

/** A breaking change between two versions that reaches operations a client calls. */
export interface BreakingChange {
  /** The change in plain words (`toClientWords`). */
  text: string;
  /** The diff rule, e.g. `response-property-removed`. */
  rule: string;
  /** Whether the change is to what the client sends or to what it receives. */
  direction: 'request' | 'response';
  /** The called operations it reaches, as usage names them: `GET /users/{id}`, without prefix or version. */
  operations: string[];
  /** The migration guide's entry for it: behaviour before and after, Markdown code spans kept. */
  guide: { oldBehaviour: string; newBehaviour: string };
}
