import type { Clock } from '../../../core/clock/index.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { ApiKeyStore, ClientStore, NoticeStore, UsageStore } from '../../ports/index.ts';

/** What the dashboard reads: ports only, never storage directly. */
export interface DashboardOptions {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
  prefix: string;
  /** The API's title (`api.title`): the pages' and feeds' name. */
  title: string;
  storage: { apiKeys: ApiKeyStore; clients: ClientStore; usage: UsageStore; notices: NoticeStore };
  /** The configured admin key, which signs in as admin without a stored record. */
  adminKey?: string;
  /** Signs the sign-in cookie; random per start when unset. */
  secret?: string;
  /** The service's public address (`publicUrl`): forms posted from its origin are the portal's own, behind a proxy too. */
  publicUrl?: string;
  /** Write buffered usage first, so the dashboard shows the latest calls. */
  flushUsage: () => Promise<void>;
}
