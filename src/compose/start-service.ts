import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock/index.ts';
import { pickDefined } from '../core/config/index.ts';
import { isVersionaryError } from '../core/errors/index.ts';
import { buildApp, type ServiceApp } from './build-app.ts';
import { configError, type LoadConfigOptions } from '../kernel/config/load-config.ts';
import type { LoopProduct } from '../loop/product.ts';
import { composeReference } from '../reference/product.ts';
import { readConfig, type ServiceConfig } from '../loop/settings.ts';
import { createServiceMetrics, type ServiceMetrics } from '../kernel/ops/metrics.ts';
import type { ChangeFeed, Storage } from '../kernel/ports/index.ts';
import { isTransientStorageError } from '../storage/guard/transient-errors.ts';
import { listenOrExplain } from './listen.ts';
import { openStorage } from '../loop/storage/open-storage.ts';
import { connectRedis, openSharedState } from '../loop/storage/shared-state.ts';
import { policyProblems, problemsOf } from '../loop/lifecycle/start-problems.ts';
import { createServiceServer, type ServiceServer } from './service-server.ts';
import { serveMetrics, type MetricsServer } from './metrics-server.ts';
import type { Telemetry } from './telemetry.ts';
import { thinRouting } from '../http/thin/thin-plane.ts';
import { problemErrorHandler } from '../http/problem-handling.ts';
import { requestIdOf } from '../kernel/ops/request-id.ts';

export interface RunningService {
  address: AddressInfo;
  /** Resolves once the app serves requests (the database reached and migrated). */
  ready: Promise<void>;
  /** Drain and stop, as on SIGTERM; resolves with the exit code. */
  shutdown(signal: string): Promise<number>;
}

type Compose = (config: ServiceConfig) => Promise<LoopProduct>;

interface StartState {
  closing: boolean;
  storage?: Storage;
  feed?: ChangeFeed;
  app?: ServiceApp;
}

interface Running {
  config: ServiceConfig;
  state: StartState;
  service: ServiceServer;
  redis: Redis | undefined;
  log: Logger;
}

/**
 * Start the service: listen at once (`/livez` answers), open storage with retries, build the app,
 * serve; drain and stop on SIGTERM/SIGINT (`docs/operations.md`).
 */
export async function startService(
  options: LoadConfigOptions & {
    exit?: (code: number) => void;
    compose?: Compose;
    clock?: Clock;
    /** The OpenTelemetry SDK, when started: shut down last, so the shutdown's own spans are exported. */
    telemetry?: Telemetry;
  },
): Promise<RunningService> {
  const { config, product } = await checkBeforeListening(options.compose ?? composeReference, options);
  const log = pino({ level: config.logLevel, base: { pid: process.pid } });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const service = createServiceServer(config.settings.timeouts);
  await listenOrExplain(service.server, { port: config.port, host: config.host, setting: 'PORT (or --port)' });
  const address = service.server.address() as AddressInfo;
  log.info({ port: address.port, host: config.host }, 'listening; connecting to storage');
  const state: StartState = { closing: false };
  const redis = config.redisUrl ? await connectRedis({ url: config.redisUrl, log }) : undefined;
  const metrics = createServiceMetrics();
  const metricsServer =
    config.ops.metricsPort !== undefined
      ? await serveMetrics({ metrics, port: config.ops.metricsPort, host: config.host }).catch(async (error) => {
          // The main port listens already: closed, so the failed start ends the process.
          service.server.close();
          await redis?.quit().catch(() => redis.disconnect());
          throw error;
        })
      : undefined;
  const running: Running = { config, state, service, redis, log };
  const ready = serveWhenReady({
    ...running,
    product,
    metrics,
    clock: options.clock ?? { now: Date.now },
    telemetry: options.telemetry !== undefined,
  });
  ready.catch((error: unknown) => reportStartFailure({ error, log, exit }));
  const shutdown = onceOnly((signal: string) =>
    stop({
      ...running,
      signal,
      ...(metricsServer ? { metricsServer } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    }),
  );
  handleSignals({ shutdown, log, exit });
  return { address, ready: ready.catch(() => {}), shutdown };
}

/** One pass before listening that reports every error at once (config, composition, policy). */
async function checkBeforeListening(compose: Compose, options: LoadConfigOptions) {
  const { config, errors: problems } = readConfig(options);
  let product: LoopProduct | undefined;
  try {
    product = await compose(config);
  } catch (error) {
    const found = problemsOf(error);
    if (!found) throw error;
    problems.push(...found);
  }
  if (product)
    problems.push(
      ...policyProblems({
        config,
        versions: product.bundle.versions.map((v) => v.name),
        prefix: product.api.prefix,
        ...pickDefined(product.defaults, ['defaultDeprecated', 'releases']),
      }),
    );
  if (problems.length > 0 || !product) throw configError(problems);
  return { config, product };
}

async function serveWhenReady(
  options: Running & {
    product: LoopProduct;
    metrics: ServiceMetrics;
    clock: Clock;
    /** An OpenTelemetry SDK is started: no thin data plane, so every call keeps Fastify's span. */
    telemetry: boolean;
  },
): Promise<void> {
  const { config, state, log } = options;
  state.storage = await openWithRetry({ config, log, closing: () => state.closing });
  if (!state.storage) return;
  const shared = await openSharedState({ config, log, ...(options.redis ? { redis: options.redis } : {}) });
  state.feed = shared.feed;
  const { rateLimitStore } = shared;
  state.app = await buildApp({
    product: options.product,
    config,
    storage: state.storage,
    clock: options.clock,
    ...(rateLimitStore ? { rateLimitStore } : {}),
    ops: {
      changeFeed: state.feed,
      metrics: options.metrics,
      shuttingDown: () => state.closing,
      reconcileMs: config.ops.reconcileMs,
      ...(rateLimitStore ? { rateLimitStore } : {}),
      readinessChecks: shared.readinessChecks,
    },
    onBootstrapKey: (key) =>
      process.stdout.write(
        `\nversionary: created the first admin API key. It is shown only this once; store it now:\n\n  ${key}\n\n`,
      ),
  });
  await state.app.ready();
  if (state.closing) return;
  const app = state.app;
  // The forwarded versions' thin data plane, but where the request's address is a proxy's to
  // read (`trustProxy`) or a span per request is Fastify's (`@fastify/otel`): there, Fastify serves all.
  const thin = config.trustProxy === undefined && !options.telemetry;
  options.service.use(
    thin ? thinRouting(app, { log: app.log, requestId: requestIdOf, onError: problemErrorHandler }) : app.routing,
  );
  log.info({ port: (options.service.server.address() as AddressInfo).port }, 'ready');
}

/** A VersionaryError is told without a stack (no bug of the code); also on stderr, where operators look first. */
function reportStartFailure(options: { error: unknown; log: Logger; exit: (code: number) => void }): void {
  const { error } = options;
  const known = isVersionaryError(error);
  options.log.fatal(known ? { code: error.code, detail: error.detail } : { err: error }, 'cannot start');
  process.stderr.write(
    `versionary: cannot start: ${known ? `${error.code}: ${error.detail}` : (error as Error).message}\n`,
  );
  options.exit(1);
}

/**
 * SIGTERM and SIGINT start the shutdown once; `on`, not `once`: a second signal is common (systemd,
 * `tini -g`), and its default action would kill the process mid-drain.
 */
function handleSignals(options: {
  shutdown: ((signal: string) => Promise<number>) & { started(): boolean };
  log: Logger;
  exit: (code: number) => void;
}): void {
  const { shutdown, log, exit } = options;
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT') interrupts++;
    if (!shutdown.started())
      return void shutdown(signal).then((code) => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        exit(code);
      });
    // The way out of a stuck drain from a terminal: Ctrl-C three times.
    if (interrupts >= 3) {
      log.warn({ signal }, 'third SIGINT: exiting now, without finishing the shutdown');
      return void exit(130);
    }
    log.warn({ signal }, 'already shutting down; signal ignored');
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

function onceOnly(run: (signal: string) => Promise<number>) {
  let running: Promise<number> | undefined;
  return Object.assign((signal: string) => (running ??= run(signal)), { started: () => running !== undefined });
}

/**
 * The shutdown (`docs/operations.md`): not ready, usage written; accept for the delay (not on SIGINT)
 * with `Connection: close`; drain within the deadline; close the app, the feed, the pools.
 */
async function stop(
  options: Running & { signal: string; metricsServer?: MetricsServer; telemetry?: Telemetry },
): Promise<number> {
  const { state, service, log, config } = options;
  state.closing = true;
  const started = Date.now();
  const delayMs = options.signal === 'SIGINT' ? 0 : config.ops.shutdownDelayMs;
  log.info(
    { signal: options.signal, inFlight: service.inFlight(), delayMs },
    'shutting down: not ready; accepting for the delay, then draining',
  );
  // A last resort: whatever hangs below, the process ends before the orchestrator's SIGKILL.
  const guard = setTimeout(() => {
    log.error({}, 'shutdown overran its deadline; exiting');
    process.exit(1);
  }, config.ops.shutdownTimeoutMs + 4000);
  guard.unref();
  let code = 0;
  try {
    service.beginDrain();
    await state.app
      ?.flushUsage()
      .catch((error: unknown) => log.warn({ err: error }, 'usage flush at shutdown failed; retried at the end'));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs - (Date.now() - started))));
    const cut = await service.drain(Math.max(0, config.ops.shutdownTimeoutMs - (Date.now() - started)));
    if (cut > 0) log.warn({ cut }, 'shutdown deadline reached with requests still running');
    await service.close();
    await state.app?.close();
    await state.feed?.close();
    await state.storage?.close();
    await options.redis?.quit().catch(() => options.redis?.disconnect());
    await options.metricsServer?.close();
    // Last: the batches still held (the drained requests' spans) are exported before the exit.
    await options.telemetry
      ?.shutdown()
      .catch((error: unknown) => log.warn({ err: error }, 'OpenTelemetry shutdown failed; some spans may be lost'));
  } catch (error) {
    log.error({ err: error }, 'shutdown failed');
    code = 1;
  }
  log.info({ ms: Date.now() - started }, 'stopped');
  clearTimeout(guard);
  return code;
}

/** Open storage, retrying with backoff (0.25 s doubling to 5 s) while the database is unreachable. */
async function openWithRetry(options: {
  config: ServiceConfig;
  log: Logger;
  closing: () => boolean;
}): Promise<Storage | undefined> {
  let delay = 250;
  for (;;) {
    try {
      return await openStorage(options.config.database, {
        ops: options.config.ops,
        onError: (error) =>
          options.log.warn(
            { err: { message: error.message } },
            'database connection lost; the pool reconnects on next use',
          ),
      });
    } catch (error) {
      if (!isTransientStorageError(error)) throw error;
      if (options.closing()) return undefined;
      options.log.warn(
        { err: { message: (error as Error).message, code: (error as { code?: string }).code }, retryInMs: delay },
        'database unreachable; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (options.closing()) return undefined;
      delay = Math.min(delay * 2, 5000);
    }
  }
}
