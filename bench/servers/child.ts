import type { ChildMessage, ParentMessage } from './protocol.ts';

/** Options for {@link serveIpc}. */
export interface ServeIpcOptions {
  port: number;
  keys?: Record<string, string>;
  /** Users in the database, for the `count` message; servers without one leave it out. */
  countUsers?: () => Promise<number>;
  /** Close everything; the process exits after it. */
  stop: () => Promise<void>;
}

/**
 * The child's side of the bench protocol: announce `ready`, then answer `heap`, `count` and `stop`.
 * A parent that dies takes the child with it (the IPC channel closes).
 *
 * @example
 * ```ts
 * serveIpc({ port: address.port, stop: () => app.close() });
 * ```
 */
export function serveIpc(options: ServeIpcOptions): void {
  const send = (message: ChildMessage) => process.send?.(message);
  const gc = (globalThis as { gc?: () => void }).gc;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await options.stop();
    // The parent waits for the exit; --cpu-prof writes its profile on process.exit too.
    process.exit(0);
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'heap') {
      if (message.gc && gc) gc();
      send({ type: 'heap', heapUsed: process.memoryUsage().heapUsed });
    } else if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', micros: user + system });
    } else if (message.type === 'count') {
      void (options.countUsers?.() ?? Promise.resolve(-1)).then((users) => send({ type: 'count', users }));
    } else if (message.type === 'stop') {
      void stop();
    }
  });
  process.on('disconnect', () => void stop());
  send({ type: 'ready', port: options.port, keys: options.keys ?? {} });
}
