import { formatIsoInstant } from '../time/index.ts';
import { replacementName, type ElementDeprecation } from './element-deprecation.ts';
import type { DeprecationDates } from './lifecycle-schema.ts';
import type { LifecycleVersion } from './schedule.ts';
import { resolveReplacement } from './replacement-rule.ts';

/** The media type of a deprecation manifest (draft-rmili-httpapi-deprecation-manifest-00). */
export const deprecationManifestType = 'application/deprecations+json';

/** An endpoint deprecated within its version, as the lifecycle store holds it. */
interface ManifestEndpoint extends DeprecationDates {
  version: string;
  method: string;
  /** Route template below the version's base, `/users/{id}`. */
  path: string;
  deprecatedAt: number;
  sunsetAt: number;
  migrationUrl?: string | null;
}

/** What {@link buildDeprecationManifest} reads: the lifecycle as it is now. */
export interface DeprecationManifestSource {
  /** Where the API lives, `/api`: a version's entry points at `<prefix>/<version>`. */
  prefix: string;
  /** Every version, with its schedule and migration guide (`LifecycleRuntime.versions()`). */
  versions: readonly LifecycleVersion[];
  endpoints: readonly ManifestEndpoint[];
  /** Fields and query parameters deprecated within a version. */
  elements: readonly ElementDeprecation[];
}

/** The dates of one entry, ISO 8601; a later date is one more optional member, absent when unset. */
interface ManifestDates {
  deprecation: string;
  sunset: string;
  /** The cap on per-client extended access after the sunset: no client is served after it. */
  extendedAccessUntil?: string;
  /** From this instant, clients that had not called it before are refused (403). */
  closedToNewClients?: string;
}

interface EntryBase extends ManifestDates {
  /** The name the usage, the admin API and each `Link` title use: `v1`, `DELETE /users/{id}`, `User.nickname`. */
  name: string;
  version: string;
  /** What to use instead, named as `name` is; `null` when none is declared. */
  replacement: string | null;
  /** The migration guide; `null` when none is known. */
  guide: string | null;
}

/** A deprecated version: every operation below `href`. */
interface VersionEntry extends EntryBase {
  kind: 'version';
  href: string;
}

/** A deprecated operation of a version that otherwise stays. */
interface EndpointEntry extends EntryBase {
  kind: 'endpoint';
  method: string;
  path: string;
}

/** A member of request and response bodies: `pointer` (RFC 6901) within each object of `schema`. */
interface FieldEntry extends EntryBase {
  kind: 'field';
  in: 'body';
  /** The schema of the version's OpenAPI document, or the resource whose schemas carry the member. */
  schema: string;
  /** Every schema that carries it, when the config names them. */
  schemas?: string[];
  member: string;
  pointer: string;
}

interface ParameterEntry extends EntryBase {
  kind: 'parameter';
  in: 'query';
  method: string;
  path: string;
  member: string;
}

type DeprecationManifestEntry = VersionEntry | EndpointEntry | FieldEntry | ParameterEntry;

/** The body of `application/deprecations+json`. */
export interface DeprecationManifest {
  deprecations: DeprecationManifestEntry[];
}

const kindOrder = { version: 0, endpoint: 1, field: 2, parameter: 3 } as const;

/**
 * The deprecation manifest of one API, in a fixed order (kind, version, name) and without a clock,
 * so every instance gives the same bytes; entries stay after their sunset, so a caller of something
 * removed can still learn why.
 */
export function buildDeprecationManifest(source: DeprecationManifestSource): DeprecationManifest {
  const { versions, prefix } = source;
  const rank = new Map([...versions].sort((a, b) => a.releasedAt - b.releasedAt).map((v, i) => [v.name, i]));
  const guideOf = (version: string) => versions.find((v) => v.name === version)?.migrationUrl ?? null;
  const entries: DeprecationManifestEntry[] = [];
  for (const v of versions) {
    if (!v.schedule) continue;
    entries.push({
      kind: 'version',
      name: v.name,
      version: v.name,
      href: `${prefix}/${v.name}`,
      ...timeline(v.schedule),
      replacement: resolveReplacement({ version: v.name, versions }) ?? null,
      guide: v.migrationUrl ?? null,
    });
  }
  for (const e of source.endpoints) {
    const method = e.method.toUpperCase();
    entries.push({
      kind: 'endpoint',
      name: `${method} ${e.path}`,
      version: e.version,
      method,
      path: e.path,
      ...timeline(e),
      replacement: null,
      guide: e.migrationUrl || guideOf(e.version),
    });
  }
  for (const e of source.elements) entries.push(elementEntry(e, e.migrationUrl ?? guideOf(e.version)));
  const ordered = entries.map((entry, i) => ({ entry, i }));
  ordered.sort(
    (a, b) =>
      kindOrder[a.entry.kind] - kindOrder[b.entry.kind] ||
      (rank.get(a.entry.version) ?? rank.size) - (rank.get(b.entry.version) ?? rank.size) ||
      (a.entry.kind === 'version' ? 0 : compare(a.entry.name, b.entry.name)) ||
      a.i - b.i,
  );
  return { deprecations: ordered.map(({ entry }) => entry) };
}

function elementEntry(e: ElementDeprecation, guide: string | null): FieldEntry | ParameterEntry {
  const head = { name: e.element, version: e.version };
  const tail = { ...timeline(e), replacement: replacementName(e) ?? null, guide };
  if (e.kind === 'parameter') {
    const method = e.method.toUpperCase();
    return { kind: 'parameter', ...head, in: 'query', method, path: e.path, member: e.parameter, ...tail };
  }
  const pointer = `/${e.field.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const schemas = e.schemas ? { schemas: [...e.schemas] } : {};
  return { kind: 'field', ...head, in: 'body', schema: e.schema, ...schemas, member: e.field, pointer, ...tail };
}

function timeline(at: DeprecationDates & { deprecatedAt: number; sunsetAt: number }): ManifestDates {
  return {
    deprecation: formatIsoInstant(at.deprecatedAt),
    sunset: formatIsoInstant(at.sunsetAt),
    ...(at.extendedAccessUntil === undefined ? {} : { extendedAccessUntil: formatIsoInstant(at.extendedAccessUntil) }),
    ...(at.closedToNewClientsAt === undefined ? {} : { closedToNewClients: formatIsoInstant(at.closedToNewClientsAt) }),
  };
}

// Code-point order, not the locale's: every instance sorts the same way.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
