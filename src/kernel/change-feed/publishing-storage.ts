import { earlierNames } from '../../core/earlier-names.ts';
import type { ChangeFeed, Storage } from '../ports/index.ts';

/** The topics the service itself publishes. Other features add their own (`clients`, …). */
export const ChangeTopic = {
  Lifecycle: 'lifecycle',
  ApiKeys: 'api-keys',
  Clients: 'clients',
  ExtendedAccess: 'extended-access',
} as const;

/**
 * The storage, with every write to shared state announced on the change feed once it is
 * committed: lifecycle schedules and endpoint deprecations on `lifecycle`, API keys (created,
 * revoked) on `api-keys`, clients (created, changed, deleted, a contact's subscription) on
 * `clients`, grants of extended access (granted, revoked) on `extended-access`. Announcing at the store means no write path can forget to.
 */
export function publishingStorage<S extends Storage>(options: { storage: S; feed: ChangeFeed }): S {
  const { storage, feed } = options;
  const { lifecycle, apiKeys, clients, extendedAccess } = storage;
  // The stores' reads pass as they are (plain objects: a spread keeps their methods). A write,
  // then its topics on the feed once the write has committed (and, with `when`, changed something).
  const announce =
    <A extends unknown[], R>(topic: string | readonly string[], write: (...args: A) => Promise<R>, when?: 'changed') =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      if (when === undefined || result)
        for (const t of typeof topic === 'string' ? [topic] : topic) await feed.publish(t);
      return result;
    };
  return {
    ...storage,
    lifecycle: {
      ...lifecycle,
      saveSchedule: announce(ChangeTopic.Lifecycle, lifecycle.saveSchedule.bind(lifecycle)),
      saveEndpointDeprecation: announce(ChangeTopic.Lifecycle, lifecycle.saveEndpointDeprecation.bind(lifecycle)),
    },
    apiKeys: {
      ...apiKeys,
      insert: announce(ChangeTopic.ApiKeys, apiKeys.insert.bind(apiKeys)),
      revoke: announce(ChangeTopic.ApiKeys, apiKeys.revoke.bind(apiKeys), 'changed'),
    },
    clients: {
      ...clients,
      insert: announce(ChangeTopic.Clients, clients.insert.bind(clients)),
      update: announce(ChangeTopic.Clients, clients.update.bind(clients)),
      delete: announce(ChangeTopic.Clients, clients.delete.bind(clients)),
      setContactSubscribed: announce(ChangeTopic.Clients, clients.setContactSubscribed.bind(clients)),
    },
    extendedAccess: {
      ...extendedAccess,
      insert: announce(grantTopics, extendedAccess.insert.bind(extendedAccess)),
      revoke: announce(grantTopics, extendedAccess.revoke.bind(extendedAccess), 'changed'),
    },
  };
}

/**
 * A grant's change goes on its topic, and on the first release's topic too, so that instances of
 * both releases keep one view while a deployment rolls from one to the other.
 */
const grantTopics = [ChangeTopic.ExtendedAccess, earlierNames.feedTopic];
