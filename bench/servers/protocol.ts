/**
 * The IPC protocol between a bench parent and the server it runs in a child process. Bench-only:
 * nothing here is reachable over HTTP, so the service gains no endpoint for it.
 */

/** What the parent asks the child. */
export type ParentMessage =
  /** Heap used now; with `gc`, after a full collection (the child runs with `--expose-gc`). */
  | { type: 'heap'; gc?: boolean }
  /** CPU time the server process has used so far (user + system), in microseconds. */
  | { type: 'cpu' }
  /** How many users the database holds (the service only). */
  | { type: 'count' }
  /** Close the app and the database, then exit (writing a CPU profile if one is being taken). */
  | { type: 'stop' };

/** What the child answers. */
export type ChildMessage =
  | { type: 'ready'; port: number; keys: Record<string, string> }
  | { type: 'heap'; heapUsed: number }
  | { type: 'cpu'; micros: number }
  | { type: 'count'; users: number };

/** An API key a bench server creates before it listens, by name: the secret comes back in `ready`. */
export interface BenchKeySpec {
  name: string;
  roles: Array<'read' | 'write' | 'admin'>;
}

/**
 * Name and email of the n-th seeded user: the bare server answers the same JSON the service does.
 *
 * @example
 * ```ts
 * seededUser(1) // { name: 'user 1', email: 'user1@example.com' }
 * ```
 */
export function seededUser(n: number): { name: string; email: string } {
  return { name: `user ${n}`, email: `user${n}@example.com` };
}
