import type { Kysely } from 'kysely';
import type { LifecycleStore } from '../../kernel/ports/index.ts';
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
            extended_access_until: row.extended_access_until,
            closed_to_new_clients_at: row.closed_to_new_clients_at,
          }),
        )
        .execute();
    },
  };
}

interface OptionalDates {
  extendedAccessUntil?: number;
  closedToNewClientsAt?: number;
}

function dateColumns(d: OptionalDates) {
  return {
    extended_access_until: d.extendedAccessUntil ?? null,
    closed_to_new_clients_at: d.closedToNewClientsAt ?? null,
  };
}

// Absent when unset; PostgreSQL answers bigint columns as strings.
function optionalDates(r: {
  extended_access_until: number | string | null;
  closed_to_new_clients_at: number | string | null;
}): OptionalDates {
  return {
    ...(r.extended_access_until === null ? {} : { extendedAccessUntil: Number(r.extended_access_until) }),
    ...(r.closed_to_new_clients_at === null ? {} : { closedToNewClientsAt: Number(r.closed_to_new_clients_at) }),
  };
}
