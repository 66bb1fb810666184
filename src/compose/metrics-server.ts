import Fastify from 'fastify';
import type { ServiceMetrics } from '../kernel/ops/metrics.ts';
import { listenOrExplain } from './listen.ts';

export interface MetricsServer {
  close(): Promise<void>;
}

/** `/metrics` on a port of its own, so a scrape never meets the API's limits or credentials. */
export async function serveMetrics(options: {
  metrics: ServiceMetrics;
  port: number;
  host: string;
}): Promise<MetricsServer> {
  const { registry } = options.metrics;
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) => {
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).header('content-type', 'application/problem+json').send({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'Only /metrics is served here.',
      code: 'NOT_FOUND',
    }),
  );
  await app.ready();
  await listenOrExplain(app.server, { ...options, setting: 'VERSIONARY_METRICS_PORT' });
  return {
    // Listened on directly (as the API's server is), so closed directly too: Fastify closes only what it listened.
    close: async () => {
      const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
      app.server.closeAllConnections();
      await closed;
      await app.close();
    },
  };
}
