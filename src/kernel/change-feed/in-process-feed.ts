import type { ChangeFeed } from '../ports/index.ts';
import { createChangeListeners } from './listeners.ts';

/** The change feed of a single process (SQLite): a publish calls this process's subscribers, at once. */
export function createInProcessChangeFeed(): ChangeFeed {
  const listeners = createChangeListeners();
  return {
    publish: async (topic) => listeners.emit(topic),
    subscribe: listeners.subscribe,
    health: () => ({ healthy: true, transport: 'in-process', unhealthySince: null }),
    close: async () => {},
  };
}
