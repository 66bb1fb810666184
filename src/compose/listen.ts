import type { Server } from 'node:net';

/** Listen, or fail with one line that says what to do, naming the `setting` that set the port. */
export async function listenOrExplain(
  server: Server,
  options: { port: number; host: string; setting: string },
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenFailure(error, options));
    server.once('error', onError);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function listenFailure(error: NodeJS.ErrnoException, options: { port: number; host: string; setting: string }) {
  const { port, host, setting } = options;
  const where = `port ${port} on ${host}`;
  const message =
    error.code === 'EADDRINUSE'
      ? `${where} is already in use (EADDRINUSE): stop the process that listens there, or choose a free port with ${setting}.`
      : error.code === 'EACCES'
        ? `no permission to listen on ${where}: ports below 1024 need privileges; choose a port from 1024 up with ${setting}.`
        : error.code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine: set HOST to one of its addresses (0.0.0.0 for all).`
          : undefined;
  if (!message) return error;
  const failure = new Error(message) as Error & { code: string; cause: unknown };
  // The stack would only repeat the message: the failure is the environment's, not the code's.
  failure.stack = failure.message;
  failure.code = 'LISTEN_FAILED';
  failure.cause = error;
  return failure;
}
