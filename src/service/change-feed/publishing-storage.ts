import type { ChangeFeed, Storage } from '../ports/index.ts';

/** The topics the service itself publishes. Other features add their own (`clients`, …). */
export const ChangeTopic = { Lifecycle: 'lifecycle', ApiKeys: 'api-keys', Clients: 'clients' } as const;

/**
 * The storage, with every write to shared state announced on the change feed once it is
 * committed: lifecycle schedules and endpoint deprecations on `lifecycle`, API keys (created,
 * revoked) on `api-keys`. Announcing at the store means no write path can forget to.
 *
 * @example
 * ```ts
 * const storage = publishingStorage({ storage: raw, feed });
 * ```
 */
export function publishingStorage<S extends Storage>(options: { storage: S; feed: ChangeFeed }): S {
  const { storage, feed } = options;
  const lifecycle = storage.lifecycle;
  const apiKeys = storage.apiKeys;
  return {
    ...storage,
    lifecycle: {
      ...lifecycle,
      listSchedules: () => lifecycle.listSchedules(),
      listEndpointDeprecations: () => lifecycle.listEndpointDeprecations(),
      saveSchedule: async (schedule) => {
        await lifecycle.saveSchedule(schedule);
        await feed.publish(ChangeTopic.Lifecycle);
      },
      saveEndpointDeprecation: async (deprecation) => {
        await lifecycle.saveEndpointDeprecation(deprecation);
        await feed.publish(ChangeTopic.Lifecycle);
      },
    },
    apiKeys: {
      ...apiKeys,
      find: (id) => apiKeys.find(id),
      list: () => apiKeys.list(),
      countActiveAdmins: () => apiKeys.countActiveAdmins(),
      insert: async (record) => {
        await apiKeys.insert(record);
        await feed.publish(ChangeTopic.ApiKeys);
      },
      revoke: async (revocation) => {
        const revoked = await apiKeys.revoke(revocation);
        if (revoked) await feed.publish(ChangeTopic.ApiKeys);
        return revoked;
      },
    },
  };
}
