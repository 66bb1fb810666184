import { ChangeTopic } from '../../../kernel/change-feed/publishing-storage.ts';
import type { DecisionTableSources } from './compile.ts';
import type { LifecycleContext } from '../context.ts';

/** How often the stored minimum versions are read again, for a change whose message was lost. */
const reconcileMs = 5000;

/** The clients' minimum versions, with a stamp moved by the `clients` topic and by a periodic read (a lost message). */
export function followMinimumVersions(
  context: Pick<LifecycleContext, 'app' | 'ops' | 'storage'>,
  moved: () => void,
): NonNullable<DecisionTableSources['minimumVersions']> {
  const { app, ops, storage } = context;
  let stamp = 0;
  let seen: string | undefined;
  const move = () => {
    stamp++;
    moved();
  };
  const unsubscribe = ops.changeFeed.subscribe(ChangeTopic.Clients, move);
  const reconcile = setInterval(() => {
    storage.clients.minimumVersions().then(
      (minimums) => {
        if (seen !== undefined && textOf(minimums) !== seen) move();
      },
      () => undefined,
    );
  }, reconcileMs);
  reconcile.unref();
  app.addHook('onClose', async () => {
    unsubscribe();
    clearInterval(reconcile);
  });
  return {
    // What the table was last compiled from: the periodic read compares the store with it.
    list: async () => {
      const minimums = await storage.clients.minimumVersions();
      seen = textOf(minimums);
      return minimums;
    },
    stamp: () => stamp,
  };
}

const textOf = (minimums: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.entries(minimums).sort(([a], [b]) => (a < b ? -1 : 1)));
