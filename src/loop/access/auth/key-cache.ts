import type { ChangeFeed } from '../../../kernel/ports/index.ts';
import type { Principal } from '../../../kernel/ports/principal.ts';

export interface ApiKeyCacheOptions {
  /** The change feed: any message on `api-keys` or `clients` empties the cache, on every instance. */
  feed: ChangeFeed;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** The safety net if a message is lost while the feed still reports itself healthy. Default 30 s. */
  ttlMs?: number;
  /** At most this many keys are held; the oldest entry goes first. Default 10,000. */
  maxEntries?: number;
}

/** Verified API keys, by the SHA-256 digest of the presented key. */
export type ApiKeyCache = ReturnType<typeof createApiKeyCache>;

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/** Topics whose changes may revoke a key or change what it may do. */
const keyCacheTopics = ['api-keys', 'clients'] as const;

/**
 * A per-instance cache of verified API keys, so a request with a known key skips the database.
 * Revocation stays instant: every change to keys or clients, on any instance, reaches this cache
 * through the change feed (PostgreSQL `LISTEN/NOTIFY` or Redis pub/sub; the publishing instance
 * hears its own change synchronously) and empties it. While the feed reports itself unhealthy a
 * message could be missed, so the cache is emptied and bypassed until the feed recovers (its
 * reconnect also empties it). A bounded TTL covers a message lost while the feed looked healthy.
 *
 * Entries are keyed by the SHA-256 digest of the presented key, never the key itself: a lookup
 * compares digests, so its timing says nothing about the secret. Only successful verifications
 * are cached; an unknown key costs a database lookup each time, as before, and cannot fill the
 * cache. A verification that started before an invalidation is not stored after it.
 */
export function createApiKeyCache(options: ApiKeyCacheOptions) {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  // The presented key → the same entry as its digest's. A SHA-256 per request was the hot path's
  // largest cost after the pipeline (issue 41): a key seen before now costs one Map lookup. The
  // entry is shared, so it expires with its digest's (`expiresAt`) and goes with every invalidation
  // (`clear` empties both maps): a revoked or rotated key stops working exactly as fast as before.
  // Bounded like `entries` (`maxEntries`, oldest first). It holds presented keys in memory, as
  // each request does while it runs; a Map compares keys only when their (non-secret) string hashes
  // match, so its timing says little about how much of a guess matches a held key.
  const tokens = new Map<string, Entry>();
  // Bumped by each invalidation: a verification that straddles one must not store its result.
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
    tokens.clear();
  };
  const unsubscribe = keyCacheTopics.map((topic) => options.feed.subscribe(topic, clear));
  const fresh = (hit: Entry | undefined) =>
    hit !== undefined && options.feed.health().healthy && hit.expiresAt > options.now() ? hit.principal : undefined;
  return {
    /** The principal of a key verified before and still fresh, without a promise (the hot path); else `undefined`. */
    peek: (digest: string): Principal | undefined => fresh(entries.get(digest)),
    /**
     * The principal of a key whose digest was verified before, else `verify()`'s answer (cached when
     * it is a principal). Without a healthy feed the cache is bypassed: every call verifies.
     */
    async lookup(digest: string, verify: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
      if (!options.feed.health().healthy) {
        if (entries.size > 0) clear();
        return verify();
      }
      const now = options.now();
      const hit = entries.get(digest);
      if (hit && hit.expiresAt > now) return hit.principal;
      if (hit) entries.delete(digest);
      const started = generation;
      const principal = await verify();
      if (principal && started === generation && options.feed.health().healthy) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(digest, { principal, expiresAt: now + ttlMs });
      }
      return principal;
    },
    /**
     * The principal of a presented key (the key itself, not its digest) that {@link remember} linked
     * to a fresh entry, without hashing it; else `undefined` (the caller hashes and asks {@link peek}).
     */
    byToken: (token: string): Principal | undefined => fresh(tokens.get(token)),
    /** Link a presented key to the entry of its digest, if one is held: its next request skips the hash. */
    remember(token: string, digest: string): void {
      const entry = entries.get(digest);
      if (entry === undefined || tokens.get(token) === entry) return;
      if (tokens.size >= maxEntries) tokens.delete(tokens.keys().next().value!);
      tokens.set(token, entry);
    },
    /** Entries held now (for tests and metrics). */
    size: () => entries.size,
    close: () => {
      for (const stop of unsubscribe) stop();
      clear();
    },
  };
}
