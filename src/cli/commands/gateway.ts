import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importServiceModule, loadStartService } from '../../compose/load-service.ts';
import { startTelemetry } from '../../compose/telemetry.ts';
import { type CliCommand, flags, ExitCode } from '../command.ts';
import { drainWhenOrphaned, listenEnv, listenOptions } from '../listen-options.ts';

/**
 * `versionary gateway`: the deprecation loop in front of an API written in any language.
 */
export const command: CliCommand = {
  name: 'gateway',
  help: `Usage: npx versionary gateway [--config <file>] [--port <port>] [--host <host>]

A reverse proxy that puts the whole deprecation loop in front of existing HTTP APIs: routing by
path (/api/v1/...) or Accept, Deprecation/Sunset/Link/Warning headers, 410 after removal and in
brownouts, usage per client, email and webhook notices, the portal and docs pages, and the
management API under /admin/v1. See docs/gateway.md.

Options (each wins over its variable below):
  --config <file>        the config file, as VERSIONARY_CONFIG
  --port <port>          where to listen, as PORT
  --host <host>          the address to listen on, as HOST
  --control-plane        nginx serves the API (versionary nginx): forward no API call (they answer
                         404 here), serve the key check and the table to nginx (with the secret
                         they share), and, with gateway.nginx.out, write nginx's files at start and
                         push each new table to nginx (docs/gateway.md#nginx-as-the-data-plane)
  --nginx-out <dir>      with --control-plane and no gateway.nginx: the folder versionary nginx
                         rendered, whose shared secret and push socket to use (its files are kept)

Configured by the environment, as the reference service is:
  VERSIONARY_CONFIG      the JSON config file; its "gateway" section is required:
                           prefix        where the API lives (default "/api")
                           vendor        media-type vendor: application/vnd.<vendor>.v2+json (default "api")
                           title         the docs' title (default: the newest document's info.title)
                           versions      { "v1": { "upstream": "http://host:port", "openapi": "./v1.json" }, ... }
                                         oldest first; documents are JSON or YAML, relative to the config file;
                                         a path no document declares is a 404, unless the version
                                         has "forwardUndocumented": true
                           identify      { "apiKeys": true } (default): Versionary keys, not forwarded
                                         { "header": "x-client-id" }: a trusted header names the client
                                         { "jwt": true } or { "jwt": { "claim": "sub" } }: a JWT checked
                                         with VERSIONARY_JWT_*, forwarded unchanged
                           clientHeader  the header that tells the upstream the client id
                                         (default "x-versionary-client")
                           timeoutMs     wait for an upstream's headers before a 504 (default 30000)
                           underscoresInHeaders   forward request headers with "_" in the name
                                         (default false: dropped, as nginx does)
                           forwardedHeaders   "x-forwarded" (default: X-Forwarded-For, -Proto,
                                         -Host), "forwarded" (RFC 7239) or "both"
                           nginx         nginx as the data plane (docs/gateway.md); with --control-plane,
                                         nginx sends the calls it counted each second, recorded
                                         as usage per client
                         and the service's keys (docs/operations.md, docs/lifecycle.md, docs/notices.md):
                           versions, endpointDeprecations   the lifecycle of each version and endpoint,
                                         in the routing plugin's lifecycle shape (dates ISO 8601 or
                                         epoch ms; "endpoints", the former name, warns VERSIONARY_DEP002)
                           fieldDeprecations, parameterDeprecations   a deprecated field or query
                                         parameter of a version (the gateway sees query parameters
                                         and fields=, names in any case, cut at "[", pairs split at
                                         "&" and ";"; bodies stream unread: docs/gateway.md)
                           headerStyle   "iso8601" (default) or "rfc": how Deprecation is written
                           removedStatus 410 (default) or 404 for removed versions and brownouts
                           audience      "public" (default, 180 days of notice) or "enterprise" (360)
                           publicUrl     the gateway's public origin, for links in notices and docs
                           notices, webhooks, usage, rateLimit, timeouts, portal   as for the service
                           rateLimit     default 100 requests per 60 s per client (key or token), and per
                                         address for anonymous calls and failed credentials
                           bodyLimit     the largest body the gateway reads itself, for the management API
                                         and the portal (default 1048576); forwarded bodies stream to the
                                         upstream unread, and the upstream sets their limit
  PORT, HOST             where to listen (default 3000 on 127.0.0.1)
  DATABASE_URL           sqlite:<file> (default sqlite:./data/versionary.db) or postgres://...
  VERSIONARY_SQLITE_DRIVER   libsql or node:sqlite (default: node:sqlite where it loads quietly)
  VERSIONARY_DB_POOL_MAX, VERSIONARY_DB_CONNECT_TIMEOUT_MS, VERSIONARY_DB_STATEMENT_TIMEOUT_MS,
  VERSIONARY_DB_SCHEMA   PostgreSQL pool size, timeouts and schema
  VERSIONARY_REDIS_URL   share rate limits and the change feed between several gateways
  VERSIONARY_REDIS_PREFIX, VERSIONARY_REDIS_TIMEOUT_MS   Redis key prefix, and how long a rate-limit
                         call to Redis may take before the limit is decided without it
  VERSIONARY_RECONCILE_MS    how often each gateway re-reads the lifecycle (default 5000)
  VERSIONARY_ADMIN_KEY   an admin key for the management API (else one is created and printed once)
  VERSIONARY_SMTP_URL, VERSIONARY_MAIL_FROM   where notice emails go
  VERSIONARY_NOTICE_SECRET   signs unsubscribe links (else they last until restart)
  VERSIONARY_PORTAL_SECRET   signs portal sessions (else they last until restart)
  VERSIONARY_DELIVERY_TIMEOUT_MS, VERSIONARY_DELIVERY_CONCURRENCY   one notice delivery at most
                         (default 10000 ms), and deliveries at once (default 8)
  VERSIONARY_JWT_SECRET, VERSIONARY_JWT_PUBLIC_KEY, VERSIONARY_JWT_JWKS, VERSIONARY_JWT_ISSUER,
  VERSIONARY_JWT_AUDIENCE, VERSIONARY_JWT_MAX_TOKEN_AGE, VERSIONARY_JWT_CLOCK_SKEW   for identify: jwt
  VERSIONARY_TRUST_PROXY   the proxies in front (hop count such as 1, or addresses and CIDR ranges):
                         their X-Forwarded-For names the client's address; unset, the socket peer
  VERSIONARY_METRICS_PORT    serve /metrics on this port too, without credentials
  VERSIONARY_SHUTDOWN_DELAY_MS, VERSIONARY_SHUTDOWN_TIMEOUT_MS   after SIGTERM, keep accepting for
                         the delay (default 5000), and finish within the timeout, delay included
                         (default 25000)
  LOG_LEVEL              fatal, error, warn, info (default), debug, trace, silent
  OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER, OTEL_SERVICE_NAME,
  OTEL_EXPORTER_OTLP_PROTOCOL   start the OpenTelemetry SDK (optional peers: @opentelemetry/sdk-node,
                         @fastify/otel, @opentelemetry/instrumentation-undici); the upstream gets the
                         gateway's traceparent (docs/observability/setup.md)

Stops cleanly on SIGTERM or SIGINT (docs/operations.md). Started by npx, it also drains when npm
exits (npm does not pass SIGTERM on); in production run node_modules/.bin/versionary itself.`,
  options: { ...listenOptions, ...flags('control-plane? nginx-out') },
  async run({ io, values }) {
    const env = listenEnv(io.env ?? {}, values);
    // First, before any Fastify app or undici pool exists: the instrumentations attach to them as they are made.
    const telemetry = await startTelemetry({ env, surface: 'gateway', warn: io.stderr });
    // Imported here, not at the top: the other commands run without the service's packages, and
    // every package this configuration needs is named at once first.
    const startService = await loadStartService(env, 'gateway');
    const { composeGateway } = await importServiceModule(() => import('../../gateway/composition.ts'));
    const readFile = (p: string) => readFileSync(p, 'utf8');
    const controlPlane = values['control-plane'] === true;
    const { nginxControlPlane, nginxTargetOf } = controlPlane
      ? await importServiceModule(() => import('../../gateway/nginx/control-plane.ts'))
      : { nginxControlPlane: undefined, nginxTargetOf: undefined };
    await startService({
      env,
      readFile,
      ...(telemetry ? { telemetry } : {}),
      compose: (config) => {
        const nginxOut = values['nginx-out'];
        // Rendered by `versionary nginx`: this control plane only reads its secret and pushes to it.
        const rendered =
          typeof nginxOut === 'string'
            ? { target: { out: resolve(nginxOut), listen: 0, control: '' }, renders: false }
            : undefined;
        const rendering = nginxTargetOf?.(config) ?? rendered;
        return composeGateway({
          config,
          readFile,
          importModule: (path) => import(pathToFileURL(path).href),
          ...(nginxControlPlane ? { controlPlane: nginxControlPlane({ config, ...rendering }) } : {}),
        });
      },
    });
    drainWhenOrphaned({ env, stderr: io.stderr });
    return await new Promise<number>(() => {}).then(() => ExitCode.Ok);
  },
};
