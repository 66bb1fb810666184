/**
 * `npx versionary gateway` runs as npm → sh → node. On SIGTERM npm exits and its shell with it,
 * but the signal does not reach node, which would keep serving, orphaned and never drained. So a
 * server that npm started watches its parent: once it is gone (the process was adopted), it sends
 * itself SIGTERM, and the usual drain runs (`docs/operations.md`). Started otherwise (`node`,
 * the bin itself, a supervisor), it watches nothing: a shell's `nohup … &` may outlive its shell.
 */
export function drainWhenOrphaned(options: {
  env: Record<string, string | undefined>;
  stderr: (text: string) => void;
  intervalMs?: number;
}): void {
  if (!options.env.npm_command) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    options.stderr('versionary: npm, which started this process, has exited: shutting down as on SIGTERM\n');
    process.kill(process.pid, 'SIGTERM');
  }, options.intervalMs ?? 500);
  // The watch never keeps the process alive by itself.
  timer.unref();
}
