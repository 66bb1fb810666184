import { parseHttpOrIsoDate, resolveUrl } from './parse-headers.ts';

/** The media type of a deprecation manifest (draft-rmili-httpapi-deprecation-manifest-00). */
const deprecationManifestType = 'application/deprecations+json';

/**
 * One deprecation of a manifest, as a client reads it: what it is, in which version, its dates,
 * its replacement and guide. Members the client does not know are ignored, so a server may add
 * dates (an extended-access cap, a closing date) without breaking older clients.
 */
export interface ManifestEntry {
  kind: 'version' | 'endpoint' | 'field' | 'parameter';
  /** `v1`, `DELETE /users/{id}`, `User.nickname`, `GET /users/{id}?fields`. */
  name: string;
  version: string;
  /** An endpoint's or a parameter's operation: method and route template below the version. */
  method?: string;
  path?: string;
  /** A field's or a parameter's own name. */
  member?: string;
  deprecatedAt: Date | undefined;
  sunsetAt: Date | undefined;
  replacement: string | undefined;
  /** The migration guide, resolved against the manifest's URL. */
  guideUrl: string | undefined;
}

/**
 * The error a client raises when a manifest cannot be read: no check passes on silence, so a
 * manifest that is missing, not JSON, or without its `deprecations` list is an error, never an
 * empty report.
 *
 * @example
 * ```ts
 * try { await client.checkManifest(); } catch (error) { if (error instanceof ManifestUnreadableError) console.error(error.message); }
 * ```
 */
export class ManifestUnreadableError extends Error {
  constructor(url: string, why: string) {
    super(`versionary: the deprecation manifest at ${url} cannot be read: ${why}`);
    this.name = 'ManifestUnreadableError';
  }
}

const kinds = new Set(['version', 'endpoint', 'field', 'parameter']);

/**
 * The entries of a manifest body, with relative guides resolved against `url`. Throws
 * {@link ManifestUnreadableError} when the body is not a manifest; skips an entry of a kind this
 * client does not know or without a name and version, and leaves a date it cannot read
 * `undefined`, never guessed.
 *
 * @example
 * ```ts
 * parseDeprecationManifest(await res.json(), res.url)[0]; // { kind: 'version', name: 'v1', sunsetAt: Date, … }
 * ```
 */
export function parseDeprecationManifest(body: unknown, url: string): ManifestEntry[] {
  const list = (body as { deprecations?: unknown } | null)?.deprecations;
  if (typeof body !== 'object' || body === null || !Array.isArray(list))
    throw new ManifestUnreadableError(url, 'the body has no "deprecations" list');
  const out: ManifestEntry[] = [];
  for (const raw of list as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const e = raw as Record<string, unknown>;
    const text = (key: string) => (typeof e[key] === 'string' && e[key] !== '' ? (e[key] as string) : undefined);
    const kind = text('kind');
    const name = text('name');
    const version = text('version');
    if (!kind || !kinds.has(kind) || !name || !version) continue;
    const guide = text('guide');
    out.push({
      kind: kind as ManifestEntry['kind'],
      name,
      version,
      ...optional('method', text('method')?.toUpperCase()),
      ...optional('path', text('path')),
      ...optional('member', text('member')),
      deprecatedAt: parseHttpOrIsoDate(text('deprecation') ?? ''),
      sunsetAt: parseHttpOrIsoDate(text('sunset') ?? ''),
      replacement: text('replacement'),
      guideUrl: guide === undefined ? undefined : resolveUrl(guide, url),
    });
  }
  return out;
}

/**
 * Read the manifest at `url` once: a failed request, a status other than 200, or a body that is
 * not a manifest is a {@link ManifestUnreadableError}.
 */
export async function fetchDeprecationManifest(url: string, doFetch: typeof fetch): Promise<ManifestEntry[]> {
  let response: Response;
  try {
    response = await doFetch(url, { headers: { accept: `${deprecationManifestType}, application/json;q=0.9` } });
  } catch (error) {
    throw new ManifestUnreadableError(url, (error as Error).message);
  }
  if (response.status !== 200) throw new ManifestUnreadableError(url, `the server answered ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ManifestUnreadableError(url, 'the body is not JSON');
  }
  return parseDeprecationManifest(body, url);
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
