import { fetchDeprecationManifest, type ManifestEntry } from './manifest.ts';
import {
  callUses,
  DeprecatedUseError,
  describeManifestNotice,
  usedEntries,
  type ManifestNotice,
  type ObservedCall,
} from './manifest-check.ts';

/**
 * What a client reads from the API's deprecation manifest (`client.checkManifest()`).
 *
 * @example
 * ```ts
 * const manifest: ManifestOptions = { uses: ['User.nickname', 'GET /users/{id}?fields'], afterSunset: 'error' };
 * ```
 */
export interface ManifestOptions {
  /** Where the manifest is; by default `<baseUrl>/deprecations`, where a Versionary API serves it. */
  url?: string;
  /**
   * What the program uses beyond the calls it makes, named as the manifest names it: a field
   * (`User.nickname`, or its bare member `nickname`), a parameter (`GET /users/{id}?fields`), an
   * endpoint (`DELETE /users/{id}`). Calls made through the client are matched by themselves.
   */
  uses?: readonly string[];
  /**
   * Once a sunset of something the program uses has passed: `'error'` (the default) makes
   * `checkManifest()` (and a later call that uses it) throw a {@link DeprecatedUseError};
   * `'warn'` only reports it.
   */
  afterSunset?: 'error' | 'warn';
}

// Shared by every client (and every copy of this module) in the process: "once per process".
const reportedKey = Symbol.for('versionary.client.reported');
const globals = globalThis as typeof globalThis & { [reportedKey]?: Set<string> };
const reported = (globals[reportedKey] ??= new Set<string>());
/** True the first time `key` is told in this process, false after. */
export const firstTime = (key: string): boolean => !reported.has(key) && Boolean(reported.add(key));

// A long-running process makes endless distinct paths (`/users/1`, `/users/2`, …): keep the last few.
const maxCalls = 256;

/** The manifest side of a client: calls observed, the manifest read once, notices reported once. */
export function createManifestWatch(options: {
  manifest: ManifestOptions | undefined;
  baseUrl: string;
  version: string;
  failWithinDays: number | undefined;
  now: () => number;
  fetch: typeof fetch;
  report: ((notice: ManifestNotice) => void) | undefined;
}) {
  let url = options.manifest?.url ?? `${options.baseUrl}/deprecations`;
  const uses = new Set(options.manifest?.uses ?? []);
  const calls = new Map<string, ObservedCall>();
  const report = options.report ?? ((n: ManifestNotice) => console.warn(describeManifestNotice(n)));
  let entries: Promise<ManifestEntry[]> | undefined;
  let loaded: ManifestEntry[] | undefined;

  // Report each notice once per process; escalate what is past its sunset (or within the limit).
  const settle = (notices: ManifestNotice[]): void => {
    for (const n of notices)
      if (firstTime(`manifest ${url} ${n.kind} ${n.name} ${n.version} ${n.sunsetAt?.getTime()}`)) report(n);
    const limit = options.failWithinDays;
    const past = notices.filter((n) => n.daysLeft !== undefined && n.daysLeft < 0);
    if (past.length > 0 && options.manifest?.afterSunset !== 'warn')
      throw new DeprecatedUseError(past, 'Their sunset has passed (afterSunset: "error").');
    const close = notices.filter((n) => limit !== undefined && n.daysLeft !== undefined && n.daysLeft < limit);
    if (close.length > 0)
      throw new DeprecatedUseError(close, `Their sunset is within ${limit} day(s), the limit set by failWithinDays.`);
  };

  return {
    /** Read the manifest (once), report what the program uses, and throw on what is past its sunset. */
    async check(): Promise<ManifestNotice[]> {
      entries ??= fetchDeprecationManifest(url, options.fetch).catch((error: unknown) => {
        entries = undefined; // a failed read is tried again on the next check
        throw error;
      });
      loaded = await entries;
      const notices = usedEntries(loaded, {
        version: options.version,
        uses,
        calls: calls.values(),
        now: options.now(),
      });
      settle(notices);
      return notices;
    },
    /** A manifest a response linked to (`rel="deprecation"` of its type): used unless `url` was given. */
    discover(linked: string): void {
      if (options.manifest?.url === undefined && entries === undefined) url = linked;
    },
    /** A call made through the client: remembered, and matched at once once the manifest is read. */
    observe(method: string, pathBelowVersion: string): void {
      const [path = '', search = ''] = pathBelowVersion.split('?');
      const call = { method: method.toUpperCase(), path, query: [...new URLSearchParams(search).keys()] };
      const key = `${call.method} ${path}?${call.query.join('&')}`;
      if (!calls.has(key)) {
        if (calls.size >= maxCalls) calls.delete(calls.keys().next().value!);
        calls.set(key, call);
      }
      if (!loaded) return;
      const matched = loaded.filter((e) => e.version === options.version && callUses(call, e));
      if (matched.length > 0)
        settle(usedEntries(matched, { version: options.version, uses: new Set(), calls: [call], now: options.now() }));
    },
  };
}
