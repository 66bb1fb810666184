import { request } from 'node:http';
import type { DecisionTable } from '../../core/rulebook/index.ts';
import type { ServiceContext } from '../../loop/host/feature.ts';
import { decisionTablesOf } from '../../loop/lifecycle/decision-table/context-tables.ts';
import { pushSocketOf } from './render-conf.ts';
import type { NginxTarget } from './render.ts';

/** What the control plane keeps nginx's shared memory in step with. */
export interface TablePusher {
  /** The decision table as compiled now. */
  table(): Promise<DecisionTable>;
  /** Push on every new generation (checked every `intervalMs`) and every change to keys or clients. */
  start(): void;
  /** Push the table now if nginx's is not the current one (or its clock moved); resolves once nginx has it. */
  sync(): Promise<void>;
  /** Resolves once the key flushes asked for so far reached nginx. */
  settled(): Promise<void>;
  stop(): void;
}

/** The topics whose changes may revoke a key or change what it may do (as the key cache's). */
const keyTopics = ['api-keys', 'clients'] as const;

/**
 * Push each new decision table (`PUT /table`, with the control plane's clock in
 * `x-versionary-now`) and each key revocation (`POST /keys/flush`) to nginx's unix socket. nginx
 * not answering is no error: it asks for the table itself when it starts.
 */
export function createTablePusher(
  context: ServiceContext,
  target: NginxTarget | undefined,
  intervalMs = 250,
): TablePusher {
  const { app, clock } = context;
  const socket = target ? pushSocketOf(target.out) : undefined;
  let pushed: { generation: number; skew: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let running: Promise<void> | undefined;
  const unsubscribe: Array<() => void> = [];
  // The app's one table (the management API serves it, the Fastify steps decide from it).
  const table = () => decisionTablesOf(context).current();
  const push = async () => {
    if (!socket) return;
    const current = await table();
    const now = clock.now();
    const skew = now - Date.now();
    // A clock that does not move (a test's) is pushed as fixed: nginx then judges at that very instant.
    await new Promise((r) => setTimeout(r, 2));
    const fixed = clock.now() === now;
    // The rules' clock is the control plane's: a clock moved (tests inject one) is pushed too.
    if (pushed && pushed.generation === current.generation && Math.abs(pushed.skew - skew) < 500) return;
    const status = await send(socket, {
      method: 'PUT',
      path: '/table',
      body: JSON.stringify(current),
      headers: {
        'x-versionary-now': String(now),
        ...(fixed ? { 'x-versionary-clock': 'fixed' } : {}),
      },
    });
    if (status === 200) pushed = { generation: current.generation, skew };
    else if (status !== undefined) app.log.error({ status }, 'nginx refused the decision table');
  };
  const tick = () => {
    running ??= push()
      .catch((error: unknown) => app.log.error({ err: error }, 'the decision table could not be pushed to nginx'))
      .finally(() => (running = undefined));
    return running;
  };
  const flushKeys = () => {
    if (!socket) return;
    flushing = flushing.then(async () => {
      const status = await send(socket, { method: 'POST', path: '/keys/flush', body: '', headers: {} });
      if (status !== undefined && status !== 200) app.log.error({ status }, 'nginx refused the key flush');
    });
  };
  return {
    table,
    start() {
      void tick();
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
      for (const topic of keyTopics) unsubscribe.push(context.ops.changeFeed.subscribe(topic, flushKeys));
    },
    async sync() {
      await running;
      pushed = undefined;
      await tick();
    },
    settled: () => flushing,
    stop() {
      clearInterval(timer);
      for (const off of unsubscribe) off();
    },
  };
}

/** One request on the unix socket: its status, or `undefined` when nginx is not listening. */
function send(
  socketPath: string,
  o: { method: string; path: string; body: string; headers: Record<string, string> },
): Promise<number | undefined> {
  const { method, path, body, headers } = o;
  return new Promise((resolve) => {
    const req = request(
      {
        socketPath,
        method,
        path,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
}
