import assert from 'node:assert/strict';
import { test } from 'node:test';
import { earlierNames } from '../../core/earlier-names.ts';
import type { ExtendedAccessGrant, Storage } from '../ports/index.ts';
import { createInProcessChangeFeed } from './in-process-feed.ts';
import { ChangeTopic, publishingStorage } from './publishing-storage.ts';

test("a grant's change is announced on extended access's topic and on the first release's, once each", async () => {
  const feed = createInProcessChangeFeed();
  const heard: string[] = [];
  for (const topic of [ChangeTopic.ExtendedAccess, earlierNames.feedTopic])
    feed.subscribe(topic, () => void heard.push(topic));
  const grant = { id: 'exm_1' } as ExtendedAccessGrant;
  // Every other store's writes are bound too: any method answers nothing.
  const store = new Proxy({}, { get: () => async () => undefined });
  const storage = {
    lifecycle: store,
    apiKeys: store,
    clients: store,
    extendedAccess: { insert: async (g: ExtendedAccessGrant) => g, revoke: async () => false },
  } as unknown as Storage;
  const published = publishingStorage({ storage, feed });
  assert.equal(await published.extendedAccess.insert(grant), grant);
  assert.deepEqual(heard, ['extended-access', 'exemptions']);
  assert.equal(await published.extendedAccess.revoke({ id: 'exm_1', at: 0, by: 'admin' }), false);
  assert.equal(heard.length, 2, 'a revocation that revoked nothing announces nothing');
});
