/** How the service runs as one of many instances: timeouts, pools, the metrics port. */
export interface OpsConfig {
  /**
   * `VERSIONARY_SHUTDOWN_TIMEOUT_MS`: the whole drain, from SIGTERM until the last connection is
   * closed, delay included; 25 000 by default, under Kubernetes' 30 s grace period.
   */
  shutdownTimeoutMs: number;
  /**
   * `VERSIONARY_SHUTDOWN_DELAY_MS`: after SIGTERM, keep accepting (and serving, not ready) this
   * long, so that the load balancer sees the instance leave before it stops listening; 5000 by default.
   */
  shutdownDelayMs: number;
  /** `VERSIONARY_DELIVERY_TIMEOUT_MS`: one webhook delivery, connect to last byte, at most this long; 10 000 by default. */
  deliveryTimeoutMs: number;
  /** `VERSIONARY_DELIVERY_CONCURRENCY`: notices delivered at once by each instance; 8 by default. */
  deliveryConcurrency: number;
  /** `VERSIONARY_METRICS_PORT`: also serve `/metrics`, without credentials, on this private port. */
  metricsPort?: number;
  /** `VERSIONARY_DB_SCHEMA`: the PostgreSQL schema; `public` by default. */
  dbSchema: string;
  /** `VERSIONARY_DB_POOL_MAX`: PostgreSQL connections per instance; 10 by default. */
  dbPoolMax: number;
  /** `VERSIONARY_DB_CONNECT_TIMEOUT_MS`: wait for a pooled connection at most this long; 2000 by default. */
  dbConnectTimeoutMs: number;
  /** `VERSIONARY_DB_STATEMENT_TIMEOUT_MS`: PostgreSQL `statement_timeout`; 5000 by default. */
  dbStatementTimeoutMs: number;
  /** `VERSIONARY_REDIS_PREFIX`: prefix of every Redis key and channel; `versionary:` by default. */
  redisPrefix: string;
  /** `VERSIONARY_REDIS_TIMEOUT_MS`: a rate-limit call to Redis gives up after this; 100 by default. */
  redisTimeoutMs: number;
  /** `VERSIONARY_RECONCILE_MS`: shared state is reloaded this often, whatever the change feed says; 5000 by default. */
  reconcileMs: number;
}

/** Parse the operations variables, pushing every error into `errors`. */
export function parseOpsConfig(options: { env: Record<string, string | undefined>; errors: string[] }): OpsConfig {
  const { env, errors } = options;
  const int = (name: string, fallback: number, [low, high]: [number, number]): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    if (Number.isInteger(value) && value >= low && value <= high) return value;
    errors.push(`${name} must be an integer from ${low} to ${high}, not "${raw}"`);
    return fallback;
  };
  const dbSchema = env.VERSIONARY_DB_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(dbSchema))
    errors.push(`VERSIONARY_DB_SCHEMA must be a lower-case SQL identifier of at most 51 characters, not "${dbSchema}"`);
  const redisPrefix = env.VERSIONARY_REDIS_PREFIX ?? 'versionary:';
  if (!/^[\x21-\x7e]{1,64}$/.test(redisPrefix))
    errors.push(`VERSIONARY_REDIS_PREFIX must be 1 to 64 visible ASCII characters, not "${redisPrefix}"`);
  const metricsPort = env.VERSIONARY_METRICS_PORT ? int('VERSIONARY_METRICS_PORT', 0, [0, 65535]) : undefined;
  const shutdownTimeoutMs = int('VERSIONARY_SHUTDOWN_TIMEOUT_MS', 25_000, [100, 600_000]);
  const shutdownDelayMs = int('VERSIONARY_SHUTDOWN_DELAY_MS', 5000, [0, 600_000]);
  // The drain after the delay needs some of the budget: at least a tenth of it.
  if (shutdownDelayMs > shutdownTimeoutMs * 0.9)
    errors.push(
      `VERSIONARY_SHUTDOWN_DELAY_MS (${shutdownDelayMs}) must be at most 90% of VERSIONARY_SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs}): the drain happens within that timeout, after the delay`,
    );
  return {
    shutdownTimeoutMs,
    shutdownDelayMs,
    deliveryTimeoutMs: int('VERSIONARY_DELIVERY_TIMEOUT_MS', 10_000, [100, 600_000]),
    deliveryConcurrency: int('VERSIONARY_DELIVERY_CONCURRENCY', 8, [1, 256]),
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    dbSchema,
    dbPoolMax: int('VERSIONARY_DB_POOL_MAX', 10, [1, 1000]),
    dbConnectTimeoutMs: int('VERSIONARY_DB_CONNECT_TIMEOUT_MS', 2000, [100, 60_000]),
    dbStatementTimeoutMs: int('VERSIONARY_DB_STATEMENT_TIMEOUT_MS', 5000, [100, 600_000]),
    redisPrefix,
    redisTimeoutMs: int('VERSIONARY_REDIS_TIMEOUT_MS', 100, [10, 10_000]),
    reconcileMs: int('VERSIONARY_RECONCILE_MS', 5000, [100, 600_000]),
  };
}
