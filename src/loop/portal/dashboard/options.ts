import type { Clock } from '../../../core/clock/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { BreakingChange } from '../../lifecycle/breaks/breaks-options.ts';
import type { DiffCache } from '../../lifecycle/breaks/diff-cache.ts';
import type { SessionCodec } from './session.ts';
import type { ExtendedAccessDecisionNotifier, Storage } from '../../../kernel/ports/index.ts';

/** What the portal's pages read: ports only, never storage directly. */
export interface DashboardOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  prefix: string;
  /** The API's title (`api.title`): the pages' and feeds' name, never the reference service's. */
  title: string;
  /** The planned brownouts (config and management API), for the changelog. */
  brownouts: () => readonly Brownout[];
  storage: Pick<Storage, 'apiKeys' | 'clients' | 'usage' | 'notices' | 'extendedAccess' | 'extendedAccessRequests'>;
  /** The configured admin key, which signs in as admin without a stored record. */
  adminKey?: string;
  /** Reads and signs the sign-in cookie; the session budget reads the same cookies. */
  sessions: SessionCodec;
  /** The service's public address (`publicUrl`): forms posted from its origin are the portal's own, behind a proxy too. */
  publicUrl?: string;
  /** Write buffered usage first, so the dashboard shows the latest calls. */
  flushUsage: () => Promise<void>;
  /** Tells a client of the owner's grant or decline (the notices part's); nothing is sent without it. */
  decisionNotices?: ExtendedAccessDecisionNotifier;
  /** The breaking changes per pair of versions, kept between requests; diffed on every request when absent. */
  diffs?: DiffCache<BreakingChange[] | undefined>;
}
