import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local OTLP/HTTP receiver that accepts every export and keeps only counts. */
export interface OtlpSink {
  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporters add `/v1/traces`, `/v1/metrics`). */
  url: string;
  /** Exports received and their bytes, so a run can tell that tracing really exported. */
  received(): { exports: number; bytes: number };
  close(): Promise<void>;
}

/**
 * Start the sink on a free port of 127.0.0.1. It answers each export with an empty success, in
 * the request's own encoding (an empty protobuf message is zero bytes; JSON gets `{}`), so the
 * exporter's cost is measured without a collector's.
 */
export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports += 1;
      const json = String(request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ exports, bytes }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
