import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';
import type { FastifyInstance } from 'fastify';
import { createInProcessChangeFeed } from '../change-feed/in-process-feed.ts';
import { ChangeTopic } from '../change-feed/publishing-storage.ts';
import type { ChangeFeed, LiveLifecycle, Storage, UsageRecorder } from '../ports/index.ts';
import type { FallbackRateLimitStore } from '../ports/rate-limit.ts';
import { installMetrics, type InstallMetricsOptions } from './install-metrics.ts';
import { createServiceMetrics, type ServiceMetrics } from './metrics.ts';
import { registerProbes, type ReadinessCheck } from './probes.ts';

/** What the composition root hands the service for running as one of many instances. */
export interface OpsWiring {
  /** Defaults to an in-process feed (one instance). */
  changeFeed?: ChangeFeed;
  /** Defaults to a fresh registry. */
  metrics?: ServiceMetrics;
  /** Checked by `/readyz` besides the storage's own ping (Redis, …). */
  readinessChecks?: ReadinessCheck[];
  /** True once shutdown has started. */
  shuttingDown?: () => boolean;
  /** The rate limiter's circuit breaker, when a shared store is configured. */
  rateLimitStore?: FallbackRateLimitStore;
  /** Shared state is reloaded this often whatever the feed says; 5000 ms by default. */
  reconcileMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The change feed between instances: `publish(topic)` after a shared write, `subscribe(topic, reload)` to follow others'. */
    changeFeed: ChangeFeed;
    /** The Prometheus registry and the plug-in API for gauges (`registerGauge`). */
    metrics: ServiceMetrics;
  }
}

/** The resolved wiring, with defaults filled in. */
export type ResolvedOps = Required<Pick<OpsWiring, 'changeFeed' | 'metrics' | 'shuttingDown'>>;

export function resolveOps(wiring: OpsWiring = {}): ResolvedOps {
  return {
    changeFeed: wiring.changeFeed ?? createInProcessChangeFeed(),
    metrics: wiring.metrics ?? createServiceMetrics(),
    shuttingDown: wiring.shuttingDown ?? (() => false),
  };
}

interface InstallOpsOptions {
  wiring?: OpsWiring;
  ops: ResolvedOps;
  storage: Storage;
  runtime: LiveLifecycle;
  recorder: UsageRecorder;
  apiPrefix: string;
  clientOf: InstallMetricsOptions['clientOf'];
}

/**
 * Install what an operator needs: request ids on every response, `/livez` and `/readyz`,
 * `/metrics`, `Connection: close` while shutting down, and
 * the lifecycle following the change feed (plus a periodic reconcile for missed messages).
 */
export function installOps(app: FastifyInstance, options: InstallOpsOptions): void {
  const { ops, storage, runtime } = options;
  const wiring = options.wiring ?? {};
  const { metrics, changeFeed } = ops;
  app.decorate('changeFeed', changeFeed);
  app.decorate('metrics', metrics);
  provideSteps({ app, prefix: options.apiPrefix }, [[opsKey, ops]]);
  const checks: ReadinessCheck[] = [
    ...(storage.ping ? [{ name: 'storage', check: () => storage.ping!() }] : []),
    ...(wiring.readinessChecks ?? []),
  ];
  registerProbes(app, { checks, shuttingDown: ops.shuttingDown, log: app.log });
  installMetrics(app, {
    metrics,
    versions: () => runtime.versions().map((v) => v.name),
    prefix: options.apiPrefix,
    clientOf: options.clientOf,
  });
  registerSunsetGauge(metrics, runtime);
  registerStateGauges(options);

  const refresh = () =>
    void runtime
      .refresh()
      .catch((error: unknown) =>
        app.log.warn({ err: error }, 'lifecycle refresh failed; the next change or reconcile retries'),
      );
  // Grants of extended access are part of the lifecycle's verdicts: a grant or revocation reloads them everywhere.
  const unsubscribe = [ChangeTopic.Lifecycle, ChangeTopic.ExtendedAccess].map((t) => changeFeed.subscribe(t, refresh));
  const reconcile = setInterval(refresh, wiring.reconcileMs ?? 5000);
  reconcile.unref();
  app.addHook('onClose', async () => {
    for (const off of unsubscribe) off();
    clearInterval(reconcile);
  });
}

const opsKey = stepKey<ResolvedOps>('ops');

export const requestIdStep = defineStep({
  needs: opsKey,
  name: 'request-id',
  thin: true,
  phase: 'respond',
  create: (ops) => (request, reply) => {
    reply.header('x-request-id', request.id);
    // A keep-alive client is sent elsewhere for its next request.
    if (ops.shuttingDown()) reply.header('connection', 'close');
  },
});

/**
 * Each deprecated version's sunset, read from the lifecycle at scrape time. A timestamp rather
 * than a count of days, as Prometheus advises: `(… - time()) / 86400` is the days left, and it
 * stays right between scrapes and after a schedule moves.
 */
function registerSunsetGauge(metrics: ServiceMetrics, runtime: LiveLifecycle): void {
  metrics.registerGauge({
    name: 'versionary_version_sunset_timestamp_seconds',
    help: "Each deprecated version's sunset (its removal), as a Unix timestamp in seconds.",
    labelNames: ['version'],
    collect: () =>
      runtime
        .versions()
        .flatMap((v) =>
          v.schedule ? [{ labels: { version: v.name }, value: Math.floor(v.schedule.sunsetAt / 1000) }] : [],
        ),
  });
}

function registerStateGauges({ ops, storage, recorder, wiring }: InstallOpsOptions): void {
  const { metrics, changeFeed } = ops;
  const rateLimit = wiring?.rateLimitStore;
  metrics.registerGauge({
    name: 'versionary_usage_buffer_depth',
    help: 'Usage records buffered in memory, not yet written.',
    collect: () => recorder.stats().buffered,
  });
  metrics.registerCounter({
    name: 'versionary_usage_records_shed_total',
    help: 'Usage records dropped because the buffer was full while the database failed.',
    collect: () => recorder.stats().shed,
  });
  metrics.registerCounter({
    name: 'versionary_usage_write_failures_total',
    help: 'Failed batch writes of usage records (each is retried).',
    collect: () => recorder.stats().failures,
  });
  metrics.registerGauge({
    name: 'versionary_change_feed_healthy',
    help: '1 while the change feed between instances delivers, 0 while it reconnects.',
    labelNames: ['transport'],
    collect: () => {
      const health = changeFeed.health();
      return [{ labels: { transport: health.transport }, value: health.healthy ? 1 : 0 }];
    },
  });
  if (storage.poolStats) {
    const stats = storage.poolStats.bind(storage);
    metrics.registerGauge({
      name: 'versionary_db_pool_connections',
      help: 'Database pool connections, by state (total, idle, waiting requests, max).',
      labelNames: ['state'],
      collect: () => {
        const s = stats();
        return (['total', 'idle', 'waiting', 'max'] as const).map((state) => ({ labels: { state }, value: s[state] }));
      },
    });
  }
  if (rateLimit) {
    metrics.registerGauge({
      name: 'versionary_rate_limit_fallback',
      help: '1 while the shared rate-limit store (Redis) is unavailable and each instance counts locally.',
      collect: () => (rateLimit.fallingBack() ? 1 : 0),
    });
    metrics.registerCounter({
      name: 'versionary_rate_limit_store_failures_total',
      help: 'Calls to the shared rate-limit store that failed or timed out.',
      collect: () => rateLimit.failures(),
    });
  }
}
