import { trace, type Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

// What `@fastify/otel` decorates each request with: the request's own span, whichever hook runs.
type Instrumented = FastifyRequest & { opentelemetry?: () => { span?: Span | null } };

/**
 * The span of the request, if it is being recorded. With `@fastify/otel`, every hook runs inside
 * a span of its own, so the active span in a hook is that hook's: the request span is the one the
 * instrumentation keeps on the request. Without it (another instrumentation, such as the HTTP
 * server's), the active span is the request's. `undefined` when no SDK is registered, so that a
 * caller builds no value for nothing.
 */
export function recordingSpanOf(request: FastifyRequest): Span | undefined {
  const own = (request as Instrumented).opentelemetry;
  const span = typeof own === 'function' ? (own.call(request).span ?? undefined) : trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}
