import type { ManifestEntry } from './manifest.ts';
import { datesOf } from './deprecation-notice.ts';

/**
 * A deprecated version, endpoint, field or parameter that the program uses, as the manifest
 * describes it.
 *
 * @example
 * ```ts
 * const notices: ManifestNotice[] = await client.checkManifest();
 * notices[0]; // { kind: 'field', name: 'User.nickname', sunsetAt: Date, daysLeft: 35, replacement: 'User.displayName', … }
 * ```
 */
export interface ManifestNotice {
  kind: ManifestEntry['kind'];
  name: string;
  version: string;
  deprecatedAt: Date | undefined;
  sunsetAt: Date | undefined;
  /** Whole days until the sunset, negative once past; `undefined` without a sunset. */
  daysLeft: number | undefined;
  replacement: string | undefined;
  guideUrl: string | undefined;
  /** Why the program is known to use it: it is the client's version, it was declared in `uses`, or it was called. */
  because: 'version' | 'declared' | 'called';
}

/**
 * The error a client raises when the manifest says that something the program uses is past its
 * sunset (or, with `failWithinDays`, closer to it than that): an unattended job stops with the
 * dates, the replacement and the guide instead of failing later on a 410.
 *
 * @example
 * ```ts
 * try { await client.checkManifest(); } catch (error) { if (error instanceof DeprecatedUseError) process.exitCode = 2; }
 * ```
 */
export class DeprecatedUseError extends Error {
  readonly notices: ManifestNotice[];

  constructor(notices: ManifestNotice[], reason: string) {
    super(`${notices.map(describeManifestNotice).join('\n')}\n${reason}`);
    this.name = 'DeprecatedUseError';
    this.notices = notices;
  }
}

/** One call the client made: method, path below the version, and the query's parameter names. */
export interface ObservedCall {
  method: string;
  path: string;
  query: readonly string[];
}

/**
 * The entries of the client's version that the program is known to use: the version itself, what
 * `uses` names (as the manifest names it, or a field's or parameter's bare member), and the
 * endpoints and query parameters of the calls made.
 */
export function usedEntries(
  entries: readonly ManifestEntry[],
  known: { version: string; uses: ReadonlySet<string>; calls: Iterable<ObservedCall>; now: number },
): ManifestNotice[] {
  const calls = [...known.calls];
  const out: ManifestNotice[] = [];
  for (const e of entries) {
    if (e.version !== known.version) continue;
    const because =
      e.kind === 'version'
        ? 'version'
        : known.uses.has(e.name) || (e.member !== undefined && e.kind === 'field' && known.uses.has(e.member))
          ? 'declared'
          : calls.some((c) => callUses(c, e))
            ? 'called'
            : undefined;
    if (because) out.push(toManifestNotice(e, because, known.now));
  }
  return out;
}

/** Whether one call used an endpoint or query parameter entry. */
export function callUses(call: ObservedCall, entry: ManifestEntry): boolean {
  if (entry.kind !== 'endpoint' && entry.kind !== 'parameter') return false;
  if (entry.method !== call.method || entry.path === undefined || !templateMatches(entry.path, call.path)) return false;
  return entry.kind === 'endpoint' || (entry.member !== undefined && call.query.includes(entry.member));
}

function toManifestNotice(e: ManifestEntry, because: ManifestNotice['because'], now: number): ManifestNotice {
  return {
    kind: e.kind,
    name: e.name,
    version: e.version,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    daysLeft: e.sunsetAt ? Math.floor((e.sunsetAt.getTime() - now) / 86_400_000) : undefined,
    replacement: e.replacement,
    guideUrl: e.guideUrl,
    because,
  };
}

// `/users/{id}` matches `/users/42`: one segment per template variable, the rest literally.
function templateMatches(template: string, path: string): boolean {
  const want = template.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((w, i) => /^\{[^}]+\}$/.test(w) || w === got[i]);
}

/**
 * One clear sentence about a manifest notice, as the default handler logs it.
 *
 * @example
 * ```ts
 * describeManifestNotice(notice); // 'versionary: this program uses deprecated field User.nickname of API version v2 (sunset 2027-01-01, in 35 days). Use User.displayName instead. Migration guide: …'
 * ```
 */
export function describeManifestNotice(n: ManifestNotice): string {
  const what =
    n.kind === 'version'
      ? `deprecated API version ${n.name}`
      : `deprecated ${n.kind} ${n.name} of API version ${n.version}`;
  const instead = n.replacement ? ` Use ${n.replacement} instead.` : '';
  const guide = n.guideUrl ? ` Migration guide: ${n.guideUrl}.` : '';
  return `versionary: this program uses ${what} (${datesOf(n)}).${instead}${guide}`;
}
