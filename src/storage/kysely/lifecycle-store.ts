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
        version: r.version,
        deprecatedAt: Number(r.deprecated_at),
        sunsetAt: Number(r.sunset_at),
        removed: Number(r.removed) === 1,
        reason: r.reason === 'critical-fix' ? 'critical-fix' : 'planned',
        migrationUrl: r.migration_url,
        ...optionalDates(r),
        ...(r.config_fingerprint === null ? {} : { configFingerprint: r.config_fingerprint }),
      }));
    },
    async saveSchedule(s) {
      const row = {
        version: s.version,
        deprecated_at: s.deprecatedAt,
        sunset_at: s.sunsetAt,
        removed: s.removed ? 1 : 0,
        reason: s.reason,
        migration_url: s.migrationUrl,
        ...dateColumns(s),
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
      return rows.map((r) => ({
        version: r.version,
        method: r.method,
        path: r.path,
        deprecatedAt: Number(r.deprecated_at),
        sunsetAt: Number(r.sunset_at),
        migrationUrl: r.migration_url,
        ...optionalDates(r),
      }));
    },
    async saveEndpointDeprecation(d) {
      const row = {
        version: d.version,
        method: d.method,
        path: d.path,
        deprecated_at: d.deprecatedAt,
        sunset_at: d.sunsetAt,
        migration_url: d.migrationUrl,
        ...dateColumns(d),
      };
      await db
        .insertInto('versionary_endpoint_deprecations')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['version', 'method', 'path']).doUpdateSet({
            deprecated_at: row.deprecated_at,
            sunset_at: row.sunset_at,
            migration_url: row.migration_url,
            ...dateColumns(d),
          }),
        )
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

function dateColumns(d: DeprecationDates): Record<DateColumn, number | null> {
  return Object.fromEntries(dateKeys.map((key) => [dateColumn[key], d[key] ?? null])) as Record<
    DateColumn,
    number | null
  >;
}

// Absent when unset; PostgreSQL answers bigint columns as strings.
function optionalDates(r: Record<DateColumn, number | string | null>): DeprecationDates {
  const dates: DeprecationDates = {};
  for (const key of dateKeys) {
    const at = r[dateColumn[key]];
    if (at !== null) dates[key] = Number(at);
  }
  return dates;
}
