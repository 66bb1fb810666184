import type { Redis } from 'ioredis';
import { createChangeListeners } from '../../kernel/change-feed/listeners.ts';
import type { ChangeFeed } from '../../kernel/ports/index.ts';

export interface RedisChangeFeedOptions {
  /** The shared client, used to publish; a duplicate of it subscribes. The caller closes it. */
  redis: Redis;
  /** The pub/sub channel; instances of one deployment share it. */
  channel: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * A change feed over Redis pub/sub. The subscriber connection reconnects by itself (ioredis
 * resubscribes); while it is down the feed reports itself unhealthy, and on its return every
 * subscriber is called, since messages published meanwhile are lost.
 */
export function createRedisChangeFeed(options: RedisChangeFeedOptions): ChangeFeed {
  const { channel, log } = options;
  const listeners = createChangeListeners({ log });
  const subscriber = options.redis.duplicate({
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    autoResubscribe: false,
    lazyConnect: false,
  });
  let unhealthySince: number | null = Date.now();
  let readyOnce = false;
  let reported = false;
  subscriber.on('error', (error: Error) => {
    if (unhealthySince === null) unhealthySince = Date.now();
    // Once per outage: ioredis reports every failed reconnection attempt.
    if (reported) return;
    reported = true;
    log.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'change feed (Redis) error');
  });
  subscriber.on('close', () => {
    if (unhealthySince === null) {
      unhealthySince = Date.now();
      log.warn({}, 'change feed (Redis) disconnected; reconnecting');
    }
  });
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) listeners.receive(message);
  });
  const onSubscribed = () => {
    if (readyOnce) {
      log.info({}, 'change feed (Redis) reconnected');
      listeners.emitAll();
    }
    readyOnce = true;
    reported = false;
    unhealthySince = null;
  };
  // Subscribe on every (re)connection: messages flow only once SUBSCRIBE is acknowledged.
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(onSubscribed, (error: unknown) =>
        log.warn({ err: { message: (error as Error).message } }, 'change feed (Redis) cannot subscribe yet'),
      );
  });

  return {
    publish: (topic) => listeners.publish(topic, (payload) => options.redis.publish(channel, payload)),
    subscribe: listeners.subscribe,
    health: () => ({ healthy: unhealthySince === null, transport: 'redis', unhealthySince }),
    async close() {
      subscriber.disconnect();
    },
  };
}
