import pg from 'pg';
import { createChangeListeners } from '../../kernel/change-feed/listeners.ts';
import type { ChangeFeed } from '../../kernel/ports/index.ts';

export interface PostgresChangeFeedOptions {
  url: string;
  /** The NOTIFY channel; instances sharing a schema share it. At most 63 characters. */
  channel: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Longest wait between reconnection attempts; 5 s by default. */
  maxBackoffMs?: number;
}

/**
 * A change feed over PostgreSQL `LISTEN/NOTIFY`, on one dedicated connection. When that connection
 * drops the feed reports itself unhealthy, reconnects with backoff, and on reconnecting calls every
 * subscriber, since notifications sent meanwhile are lost. A heartbeat query finds a connection
 * that hangs without closing.
 */
export async function createPostgresChangeFeed(options: PostgresChangeFeedOptions): Promise<ChangeFeed> {
  const { channel, log } = options;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name "${channel}"`);
  const listeners = createChangeListeners({ log });
  let client: pg.Client | undefined;
  let unhealthySince: number | null = Date.now();
  let connectedOnce = false;
  let closed = false;
  let backoff = 100;
  let retry: NodeJS.Timeout | undefined;

  const down = (reason: unknown) => {
    const lost = client;
    client = undefined;
    lost?.removeAllListeners('notification');
    lost?.end().catch(() => {});
    if (unhealthySince === null) {
      unhealthySince = Date.now();
      log.warn({ err: reason }, 'change feed (PostgreSQL) disconnected; reconnecting');
    }
    schedule();
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, backoff);
    retry.unref();
    backoff = Math.min(backoff * 2, options.maxBackoffMs ?? 5000);
  };
  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: 2000,
      keepAlive: true,
      query_timeout: 2000,
    });
    // A dropped connection emits 'error' and 'end'; without the listener it would end the process.
    next.on('error', (error) => {
      if (client === next) down(error);
    });
    next.on('end', () => {
      if (client === next) down(new Error('connection ended'));
    });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) listeners.receive(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      next.end().catch(() => {});
      if (unhealthySince === null) unhealthySince = Date.now();
      schedule();
      return;
    }
    if (closed) return void next.end().catch(() => {});
    client = next;
    backoff = 100;
    if (unhealthySince !== null && connectedOnce) log.info({}, 'change feed (PostgreSQL) reconnected');
    unhealthySince = null;
    if (connectedOnce) listeners.emitAll();
    connectedOnce = true;
  };
  const heartbeat = setInterval(() => {
    const current = client;
    if (current)
      current.query('SELECT 1').catch((error: unknown) => {
        if (client === current) down(error);
      });
  }, 2000);
  heartbeat.unref();
  await connect();

  return {
    publish: (topic) =>
      listeners.publish(topic, (payload) => client?.query('SELECT pg_notify($1, $2)', [channel, payload])),
    subscribe: listeners.subscribe,
    health: () => ({ healthy: unhealthySince === null, transport: 'postgres', unhealthySince }),
    async close() {
      closed = true;
      clearInterval(heartbeat);
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
