import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What a raw exchange saw: the bytes the server sent, and when it closed the connection. */
export interface RawExchange {
  /** Everything received, as latin1 text. */
  received: string;
  /** Milliseconds from the first write until the server closed, or undefined if it did not. */
  closedAfter: number | undefined;
  /** The status code of the first response, if any arrived. */
  status: number | undefined;
  /** Headers of the first response, lower-cased names. */
  headers: Record<string, string>;
  /** Body of the first response (after the blank line). */
  body: string;
}

/**
 * Open a TCP connection to a listening app (or a started service's port), write `chunks` as they are (no HTTP client fixes them
 * up), and wait until the server closes or `waitMs` passes.
 */
export async function rawExchange(
  target: FastifyInstance | { port: number },
  chunks: Array<string | Buffer>,
  options: { waitMs: number },
): Promise<RawExchange> {
  const port = 'port' in target ? target.port : (target.server.address() as AddressInfo).port;
  const socket = connect(port, '127.0.0.1');
  const parts: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => parts.push(chunk));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const start = Date.now();
  for (const chunk of chunks) socket.write(chunk);
  const closedAfter = await new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), options.waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - start);
    });
  });
  socket.destroy();
  const received = Buffer.concat(parts).toString('latin1');
  const [head = '', ...rest] = received.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  return { received, closedAfter, status: status ? Number(status) : undefined, headers, body: rest.join('\r\n\r\n') };
}
