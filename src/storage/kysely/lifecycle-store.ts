import type { Insertable, Kysely } from 'kysely';
import { deprecationDateKeys } from '../../core/lifecycle/index.ts';
import type {
  DeprecationDates,
  EndpointDeprecation,
  LifecycleStore,
  StoredSchedule,
} from '../../kernel/ports/index.ts';
import { asIs, flag, numeric, optional, rowMapping, type Fields } from './mapping.ts';
import type { Tables } from './tables.ts';

/**
 * Lifecycle state over Kysely: upserts keyed by version (and endpoint), so every instance on the
 * same database converges on the same schedule.
 */
export function createLifecycleStore(db: Kysely<Tables>): LifecycleStore {
  return {
    async listSchedules() {
      return (await db.selectFrom('versionary_version_schedules').selectAll().execute()).map(schedules.fromRow);
    },
    async saveSchedule(s) {
      const row = schedules.toRow(s) as Insertable<Tables['versionary_version_schedules']>;
      const { version: _key, ...rest } = row;
      await db
        .insertInto('versionary_version_schedules')
        .values(row)
        .onConflict((oc) => oc.column('version').doUpdateSet(rest))
        .execute();
    },
    async listEndpointDeprecations() {
      return (await db.selectFrom('versionary_endpoint_deprecations').selectAll().execute()).map(endpoints.fromRow);
    },
    async saveEndpointDeprecation(d) {
      const row = endpoints.toRow(d) as Insertable<Tables['versionary_endpoint_deprecations']>;
      const { version: _version, method: _method, path: _path, ...rest } = row;
      await db
        .insertInto('versionary_endpoint_deprecations')
        .values(row)
        .onConflict((oc) => oc.columns(['version', 'method', 'path']).doUpdateSet(rest))
        .execute();
    },
  };
}

// The columns a version's schedule and an endpoint's deprecation share. The optional dates are the
// lifecycle schema's, each in the column of its name (`extended_access_until`), absent when unset.
const dated = {
  version: asIs,
  deprecatedAt: numeric,
  sunsetAt: numeric,
  migrationUrl: asIs,
  ...(Object.fromEntries(deprecationDateKeys.map((key) => [key, optional(numeric)])) as Fields<DeprecationDates>),
};

const schedules = rowMapping<StoredSchedule>({
  ...dated,
  removed: flag,
  reason: {
    toRow: (reason) => ({ reason }),
    fromRow: (row) => (row.reason === 'critical-fix' ? 'critical-fix' : 'planned'),
  },
  // Unset, a save keeps the stored one.
  configFingerprint: {
    toRow: (value) => (value === undefined ? {} : { config_fingerprint: value }),
    fromRow: (row) => (row.config_fingerprint as string | null) ?? undefined,
  },
});

const endpoints = rowMapping<EndpointDeprecation>({ ...dated, method: asIs, path: asIs });
