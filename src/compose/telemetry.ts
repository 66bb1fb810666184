import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { redactUrl } from '../kernel/app/redact-url.ts';
import { installLine } from '../loop/storage/peer-packages.ts';

/** A started OpenTelemetry SDK: shut down last, so that the final spans and metrics are exported. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

const peersOf = {
  service: ['@opentelemetry/sdk-node', '@fastify/otel'],
  gateway: ['@opentelemetry/sdk-node', '@fastify/otel', '@opentelemetry/instrumentation-undici'],
} as const;

/** The health probes: one span per probe every few seconds would drown the API's own traces. */
const probes = new Set(['/livez', '/readyz', '/healthz']);

/** Whether the standard `OTEL_*` variables ask for OpenTelemetry: without them no SDK package loads. */
function telemetryWanted(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const set = (name: string) => (env[name]?.trim() ?? '') !== '';
  const exporter = (name: string) => set(name) && env[name]!.trim().toLowerCase() !== 'none';
  return (
    set('OTEL_EXPORTER_OTLP_ENDPOINT') ||
    set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ||
    set('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT') ||
    exporter('OTEL_TRACES_EXPORTER') ||
    exporter('OTEL_METRICS_EXPORTER')
  );
}

/**
 * Start the OpenTelemetry SDK when `env` asks for it, before any Fastify app is created; with an
 * optional peer missing, `warn` names the install command and the service starts without it.
 */
export async function startTelemetry(options: {
  env: Record<string, string | undefined>;
  surface: keyof typeof peersOf;
  warn: (line: string) => void;
  resolves?: (name: string) => boolean;
}): Promise<Telemetry | undefined> {
  const { env, surface } = options;
  if (!telemetryWanted(env)) return undefined;
  const missing = peersOf[surface].filter((name) => !(options.resolves ?? resolvesHere)(name));
  if (missing.length > 0) {
    options.warn(
      `versionary: OpenTelemetry is configured (OTEL_*) but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed; starting without it. Install with: ${installLine(peersOf[surface])}\n`,
    );
    return undefined;
  }
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentations = [
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      requestHook: redactServerSpan,
      ...(env.OTEL_FASTIFY_IGNORE_PATHS ? {} : { ignorePaths: ({ url }: { url: string }) => probes.has(url) }),
    }),
    ...(surface === 'gateway'
      ? [
          new (await import('@opentelemetry/instrumentation-undici')).UndiciInstrumentation({
            startSpanHook: redactedClientAttributes,
          }),
        ]
      : []),
  ];
  // A name of its own unless the operator gave one (the SDK would say `unknown_service:node`).
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    instrumentations,
    ...(named ? {} : { serviceName: surface === 'gateway' ? 'versionary-gateway' : 'versionary' }),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

/** `@fastify/otel` writes the URL with its query in `url.path`: a key sent there is redacted, as in the logs. */
function redactServerSpan(span: Span, request: FastifyRequest): void {
  const path = redactUrl(request.url);
  if (path !== request.url) span.setAttribute('url.path', path);
}

/** The gateway's upstream call carries the client's query: redacted before undici's client span starts. */
function redactedClientAttributes(request: { origin: string; path: string }): Record<string, string> {
  let url: URL;
  try {
    url = new URL(request.path, request.origin);
  } catch {
    // The instrumentation makes no span for a URL it cannot parse either.
    return {};
  }
  const query = redactUrl(url.search);
  return query === url.search ? {} : { 'url.full': redactUrl(url.toString()), 'url.query': query };
}

function resolvesHere(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}
