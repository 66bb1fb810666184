import type { Kysely } from 'kysely';
import { deprecationDateKeys } from '../../core/lifecycle/index.ts';
import type {
  DeprecationDates,
  EndpointDeprecation,
  LifecycleStore,
  StoredSchedule,
} from '../../kernel/ports/index.ts';
import { asIs, flag, numeric, optional, rowMapping, type Fields, type Row } from './mapping.ts';
import type { Tables } from './tables.ts';

/**
 * Lifecycle state over Kysely: upserts keyed by version (and endpoint), so every instance on the
 * same database converges on the same schedule.
 */
export function createLifecycleStore(db: Kysely<Tables>): LifecycleStore {
  // Insert the row, or set its other columns on the one its key columns name.
  const upsert = async (table: keyof Tables, row: Row, keys: string[]) => {
    const rest = Object.fromEntries(Object.entries(row).filter(([column]) => !keys.includes(column)));
    const loose = db as unknown as Kysely<Record<string, Row>>;
    await loose
      .insertInto(table)
      .values(row)
      .onConflict((oc) => oc.columns(keys).doUpdateSet(rest))
      .execute();
  };
  return {
    async listSchedules() {
      return (await db.selectFrom('versionary_version_schedules').selectAll().execute()).map(schedules.fromRow);
    },
    saveSchedule: (s) => upsert('versionary_version_schedules', schedules.toRow(s), ['version']),
    async listEndpointDeprecations() {
      return (await db.selectFrom('versionary_endpoint_deprecations').selectAll().execute()).map(endpoints.fromRow);
    },
    saveEndpointDeprecation: (d) =>
      upsert('versionary_endpoint_deprecations', endpoints.toRow(d), ['version', 'method', 'path']),
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
