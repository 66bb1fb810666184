import type { Clock } from '../../core/clock/index.ts';
import type {
  ElementDeprecation,
  LifecycleDocument,
  LifecycleVerdict,
  LifecycleVersion,
  PolicyWarning,
} from '../../core/lifecycle/index.ts';
import type {
  EndpointDeprecation,
  ExtendedAccessStore,
  LifecycleStore,
  LiveLifecycle,
  StoredSchedule,
} from '../../kernel/ports/index.ts';
import type { LifecycleSettings } from './settings.ts';
import type { ConfigConflict } from './config-merge.ts';

export interface LifecycleRuntimeOptions {
  settings: LifecycleSettings;
  store: LifecycleStore;
  clock: Clock;
  /** Versions with code, oldest first, with their default release instants if any (kept only where they fit that order). */
  versions: Array<{ name: string; releasedAt?: number | undefined }>;
  prefix: string;
  /** Deprecated with the default notice at first start when the config declares no versions. */
  defaultDeprecated?: string[];
  onError?: (error: unknown) => void;
  /** Per-client grants past a sunset: loaded at start and on every `refresh`. */
  grants?: Pick<ExtendedAccessStore, 'list'>;
}

/** The service's live view of the lifecycle, cached until the next instant it changes. */
export interface LifecycleRuntime extends LiveLifecycle {
  verdict(options: { version: string; method: string; path: string }): LifecycleVerdict;
  /**
   * A client's own date for a version (`v1`) or endpoint (`v1 GET /users/{id}`): its grant's
   * `until`, within the subject's cap; undefined without an active grant or without a cap.
   */
  extensionOf(clientId: string, subject: { version: string; endpoint?: string }): number | undefined;
  /**
   * The verdict of a key at an instant, as a request then would get it (for `clientId`, with its
   * extended access): what the decision table is compiled from. Reads the state only.
   */
  verdictAt(
    key: { version: string; method: string; path: string },
    at: number,
    clientId?: string,
  ): { verdict: LifecycleVerdict; until: number };
  /** The clients with an active grant for a subject (`v1`, `v1 GET /users/{id}`), as loaded. */
  extendedAccessClients(subject: string): string[];
  /** Moves each time a refresh changes the grants (the lifecycle generation does not). */
  grantsStamp(): number;
  /** See `LifecycleSource.elementTouches`. */
  elementTouches(element: ElementDeprecation): boolean;
  listHeaders(): Record<string, string>;
  document(): LifecycleDocument;
  versions(): LifecycleVersion[];
  migrationUrl(version: string): string;
  endpointDeprecations(): EndpointDeprecation[];
  /** A version's stored schedule, with its cap and closing date; undefined when not deprecated. */
  scheduleOf(version: string): StoredSchedule | undefined;
  /** Fields and query parameters deprecated within a version (`fieldDeprecations`, `parameterDeprecations`), from the config. */
  elements(): readonly ElementDeprecation[];
  /** The `Link` value of the API's deprecation manifest, sent last by deprecated responses. */
  manifestLink: string;
  headerStyle: LifecycleSettings['headerStyle'];
  audience: LifecycleSettings['audience'];
  /**
   * Counts the changes of lifecycle state (schedules, endpoint deprecations, a version flagged
   * removed): whatever is derived from the lifecycle and kept between requests is stale once it moves.
   */
  generation(): number;
  /** See `LifecycleSource.unscheduled`: no schedule of the version, no deprecation of the endpoint. */
  unscheduled(key: { version: string; method: string; path: string }): boolean;
  /** Call `listener` each time the generation moves (see `LifecycleSource.onChange`). */
  onChange(listener: () => void): void;
  /** Replace state after a write through the management API, or a refresh from the store. */
  apply(options: { schedules?: StoredSchedule[]; endpoints?: EndpointDeprecation[] }): void;
  refresh(): Promise<void>;
  warnings: PolicyWarning[];
  /** Where the config file and the stored schedules differed at start, and which won (see `mergeConfigured`). */
  configConflicts: ConfigConflict[];
}
