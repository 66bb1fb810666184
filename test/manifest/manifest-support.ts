import assert from 'node:assert/strict';

/** One entry of a served manifest, as a client reads it. */
export interface Entry {
  kind: string;
  name: string;
  version: string;
  deprecation: string;
  sunset: string;
  replacement: string | null;
  guide: string | null;
  [member: string]: unknown;
}

/** An answer of `GET <url>`, its body parsed, with the headers a cache reads. */
export interface ManifestAnswer {
  status: number;
  type: string | null;
  etag: string | null;
  cacheControl: string | null;
  deprecations: Entry[];
}

/** `GET` the manifest with no credential (and `If-None-Match` when given). */
export async function readManifest(url: string, ifNoneMatch?: string): Promise<ManifestAnswer> {
  const res = await fetch(url, { headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    etag: res.headers.get('etag'),
    cacheControl: res.headers.get('cache-control'),
    deprecations: res.status === 200 ? (JSON.parse(text) as { deprecations: Entry[] }).deprecations : [],
  };
}

/** The manifest's URL as the api-catalog at `base` links it: `deprecation`, typed `application/deprecations+json`. */
export async function manifestFromCatalog(base: string): Promise<string> {
  const res = await fetch(`${base}/.well-known/api-catalog`);
  assert.equal(res.status, 200);
  const { linkset } = (await res.json()) as { linkset: Array<Record<string, unknown>> };
  const targets = linkset.flatMap((context) => (context.deprecation ?? []) as Array<{ href: string; type?: string }>);
  const manifest = targets.filter((t) => t.type === 'application/deprecations+json');
  assert.equal(manifest.length, 1, JSON.stringify(linkset));
  return new URL(manifest[0]!.href, base).toString();
}

/** The entry of `kind` named `name`, failing when there is none. */
export function entryOf(entries: readonly Entry[], kind: string, name: string): Entry {
  const found = entries.find((e) => e.kind === kind && e.name === name);
  assert.ok(found, `no ${kind} ${name} in ${JSON.stringify(entries.map((e) => `${e.kind} ${e.name}`))}`);
  return found;
}
