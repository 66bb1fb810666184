import type { Kysely } from 'kysely';
import type { DeprecationDates, LifecycleStore } from '../../kernel/ports/index.ts';
import type { Tables } from './tables.ts';

/**
 * Lifecycle state over Kysely: upserts keyed by version (and endpoint), so every instance on the
 * same database converges on the same schedule.
 */
export function createLifecycleStore(db: Kysely<Tables>): LifecycleStore {
  return {
    async listSchedules() {
      const rows = await db.selectFrom('versionary_version_schedules').selectAll().execute();
      return rows.map((r) => ({
        ...fromDates(r),
        removed: Number(r.removed) === 1,
        reason: r.reason === 'critical-fix' ? 'critical-fix' : 'planned',
        ...(r.config_fingerprint === null ? {} : { configFingerprint: r.config_fingerprint }),
      }));
    },
    async saveSchedule(s) {
      const row = {
        ...toDates(s),
        removed: s.removed ? 1 : 0,
        reason: s.reason,
        ...(s.configFingerprint === undefined ? {} : { config_fingerprint: s.configFingerprint }),
      };
      const { version: _key, ...rest } = row;
      await db
        .insertInto('versionary_version_schedules')
        .values(row)
        .onConflict((oc) => oc.column('version').doUpdateSet(rest))
        .execute();
    },
    async listEndpointDeprecations() {
      const rows = await db.selectFrom('versionary_endpoint_deprecations').selectAll().execute();
      return rows.map((r) => ({ ...fromDates(r), method: r.method, path: r.path }));
    },
    async saveEndpointDeprecation(d) {
      const { version, ...rest } = toDates(d);
      await db
        .insertInto('versionary_endpoint_deprecations')
        .values({ ...rest, version, method: d.method, path: d.path })
        .onConflict((oc) => oc.columns(['version', 'method', 'path']).doUpdateSet(rest))
        .execute();
    },
  };
}

// The column of each of the port's optional dates: a date the schema adds fails to compile here
// until it has its column.
const dateColumn = {
  extendedAccessUntil: 'extended_access_until',
  closedToNewClientsAt: 'closed_to_new_clients_at',
} as const satisfies Record<keyof DeprecationDates, string>;

type DateKey = keyof DeprecationDates;
type DateColumn = (typeof dateColumn)[DateKey];
const dateKeys = Object.keys(dateColumn) as DateKey[];

type Dated = { version: string; deprecatedAt: number; sunsetAt: number; migrationUrl: string | null };
type DatedRow = Record<DateColumn, number | string | null> & {
  version: string;
  deprecated_at: number;
  sunset_at: number;
  migration_url: string | null;
};

/** The columns a version's schedule and an endpoint's deprecation share. */
function toDates(d: Dated & DeprecationDates) {
  return {
    version: d.version,
    deprecated_at: d.deprecatedAt,
    sunset_at: d.sunsetAt,
    migration_url: d.migrationUrl,
    ...(Object.fromEntries(dateKeys.map((key) => [dateColumn[key], d[key] ?? null])) as Record<
      DateColumn,
      number | null
    >),
  };
}

// Optional dates are absent when unset; PostgreSQL answers bigint columns as strings.
function fromDates(r: DatedRow): Dated & DeprecationDates {
  const dates: Dated & DeprecationDates = {
    version: r.version,
    deprecatedAt: Number(r.deprecated_at),
    sunsetAt: Number(r.sunset_at),
    migrationUrl: r.migration_url,
  };
  for (const key of dateKeys) {
    const at = r[dateColumn[key]];
    if (at !== null) dates[key] = Number(at);
  }
  return dates;
}
