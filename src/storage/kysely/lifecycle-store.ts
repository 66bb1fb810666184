import type { Kysely } from 'kysely';
import type { LifecycleStore, UsageStore } from '../../service/ports/index.ts';
import type { Tables } from './tables.ts';

/**
 * Lifecycle state over Kysely: upserts keyed by version (and endpoint), so every instance on the
 * same database converges on the same schedule.
 *
 * @example
 * ```ts
 * const lifecycle = createLifecycleStore(db);
 * ```
 */
export function createLifecycleStore(db: Kysely<Tables>): LifecycleStore {
  return {
    async listSchedules() {
      const rows = await db.selectFrom('version_schedules').selectAll().execute();
      return rows.map((r) => ({
        version: r.version, deprecatedAt: Number(r.deprecated_at), sunsetAt: Number(r.sunset_at), removed: Number(r.removed) === 1,
        reason: r.reason === 'critical-fix' ? 'critical-fix' : 'planned', migrationUrl: r.migration_url,
      }));
    },
    async saveSchedule(s) {
      const row = { version: s.version, deprecated_at: s.deprecatedAt, sunset_at: s.sunsetAt, removed: s.removed ? 1 : 0, reason: s.reason, migration_url: s.migrationUrl };
      const { version: _key, ...rest } = row;
      await db.insertInto('version_schedules').values(row).onConflict((oc) => oc.column('version').doUpdateSet(rest)).execute();
    },
    async listEndpointDeprecations() {
      const rows = await db.selectFrom('endpoint_deprecations').selectAll().execute();
      return rows.map((r) => ({ version: r.version, method: r.method, path: r.path, deprecatedAt: Number(r.deprecated_at), sunsetAt: Number(r.sunset_at), migrationUrl: r.migration_url }));
    },
    async saveEndpointDeprecation(d) {
      const row = { version: d.version, method: d.method, path: d.path, deprecated_at: d.deprecatedAt, sunset_at: d.sunsetAt, migration_url: d.migrationUrl };
      await db.insertInto('endpoint_deprecations').values(row)
        .onConflict((oc) => oc.columns(['version', 'method', 'path']).doUpdateSet({ deprecated_at: row.deprecated_at, sunset_at: row.sunset_at, migration_url: row.migration_url }))
        .execute();
    },
  };
}

/**
 * Usage records over Kysely: batched inserts, SQL aggregates for the summary.
 *
 * @example
 * ```ts
 * const usage = createUsageStore(db);
 * ```
 */
export function createUsageStore(db: Kysely<Tables>): UsageStore {
  // Full chunks reuse one compiled 200-row INSERT: building that query tree per batch cost more
  // than SQLite's insert itself. The remainder goes through the builder.
  const chunk = 200;
  const fullChunk = db.insertInto('usage_calls').values(Array.from({ length: chunk }, () => ({ version: '', endpoint: '', client_id: '', at: 0 }))).compile();
  return {
    async insert(records) {
      if (records.length === 0) return;
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < records.length; i += chunk) {
          const part = records.slice(i, i + chunk);
          if (part.length === chunk) {
            const parameters: unknown[] = [];
            for (const r of part) parameters.push(r.version, r.endpoint, r.clientId, r.at);
            await tx.executeQuery({ ...fullChunk, parameters });
          } else {
            await tx.insertInto('usage_calls').values(part.map((r) => ({ version: r.version, endpoint: r.endpoint, client_id: r.clientId, at: r.at }))).execute();
          }
        }
      });
    },
    async summary(version) {
      const row = await db.selectFrom('usage_calls').where('version', '=', version)
        .select((eb) => [
          eb.fn.countAll<number>().as('calls'),
          eb.fn.count<number>('client_id').distinct().as('clients'),
          eb.fn.count<number>('endpoint').distinct().as('endpoints'),
        ]).executeTakeFirstOrThrow();
      return { calls: Number(row.calls), clients: Number(row.clients), endpoints: Number(row.endpoints) };
    },
    async list({ version, clientId, limit, afterId }) {
      let query = db.selectFrom('usage_calls').selectAll().where('version', '=', version).where('id', '>', afterId);
      if (clientId !== undefined) query = query.where('client_id', '=', clientId);
      const rows = await query.orderBy('id').limit(limit + 1).execute();
      const items = rows.slice(0, limit).map((r) => ({ id: Number(r.id), version: r.version, endpoint: r.endpoint, clientId: r.client_id, at: Number(r.at) }));
      return { items, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
    },
  };
}
