import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { DecisionTable } from '../../core/rulebook/index.ts';
import { decisionTablesOf } from '../../loop/lifecycle/decision-table/context-tables.ts';
import { nginxSecretHeader } from './control-paths.ts';
import { pushSocketOf } from './render-conf.ts';
import type { NginxTarget } from './render.ts';
import type { LifecycleContext } from '../../loop/lifecycle/context.ts';

/** What the control plane keeps nginx's shared memory in step with. */
export interface TablePusher {
  table(): Promise<DecisionTable>;
  /** Push on every new generation (checked every 250 ms) and every change to keys or clients. */
  start(): void;
  /** Push the table now if nginx's is not the current one (or its clock moved); resolves once nginx has it. */
  sync(): Promise<void>;
  /** Resolves once the key flushes asked for so far reached nginx. */
  settled(): Promise<void>;
  stop(): void;
}

/** The topics whose changes may revoke a key or change what it may do (as the key cache's). */
const keyTopics = ['api-keys', 'clients'] as const;

/** How often nginx's table is checked against the one pushed (its digest), in ticks. */
const verifyEveryTicks = 8;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Push each new decision table (`PUT /table`) and key revocation (`POST /keys/flush`) to nginx's
 * unix socket with the shared secret. Every 8 ticks nginx's table is checked by its digest (`GET
 * /state`) and pushed over when it differs (nginx restarted). nginx not answering is no error:
 * it asks for the table itself when it starts.
 */
export function createTablePusher(
  context: LifecycleContext,
  options: {
    target: NginxTarget | undefined;
    /** The shared secret, once the control plane has read it. */
    secret: () => string | undefined;
  },
): TablePusher {
  const { app, clock } = context;
  const { target, secret } = options;
  const socket = target ? pushSocketOf(target.out) : undefined;
  let pushed: { generation: number; skew: number; digest: string } | undefined;
  let ticks = 0;
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
    if (pushed && pushed.generation === current.generation && Math.abs(pushed.skew - skew) < 500) {
      if (++ticks % verifyEveryTicks !== 0 || (await inForce(pushed.digest))) return;
      app.log.warn('the decision table in nginx is not the one pushed: pushed again');
    }
    const body = JSON.stringify(current);
    const { status } = await send(socket, secret(), {
      method: 'PUT',
      path: '/table',
      body,
      headers: { 'x-versionary-now': String(now), ...(fixed ? { 'x-versionary-clock': 'fixed' } : {}) },
    });
    if (status === 200) pushed = { generation: current.generation, skew, digest: sha256(body) };
    else if (status !== undefined) app.log.error({ status }, 'nginx refused the decision table');
  };
  // Whether nginx holds the table of this digest. An nginx not listening is left alone: it asks for the table when it starts.
  const inForce = async (digest: string) => {
    const { status, body } = await send(socket!, secret(), { method: 'GET', path: '/state' });
    if (status !== 200) return status === undefined;
    return (JSON.parse(body) as { digest?: string }).digest === digest;
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
      const { status } = await send(socket, secret(), { method: 'POST', path: '/keys/flush' });
      if (status !== undefined && status !== 200) app.log.error({ status }, 'nginx refused the key flush');
    });
  };
  return {
    table,
    start() {
      void tick();
      timer = setInterval(() => void tick(), 250);
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

/** One request on the unix socket, with the shared secret: its status and body, or no status when nginx is not listening. */
function send(
  socketPath: string,
  secret: string | undefined,
  o: { method: string; path: string; body?: string; headers?: Record<string, string> },
): Promise<{ status?: number | undefined; body: string }> {
  const { method, path, body = '', headers } = o;
  return new Promise((resolve) => {
    const req = request(
      {
        socketPath,
        method,
        path,
        headers: {
          ...headers,
          ...(secret ? { [nginxSecretHeader]: secret } : {}),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
      },
    );
    req.on('error', () => resolve({ body: '' }));
    req.end(body);
  });
}
