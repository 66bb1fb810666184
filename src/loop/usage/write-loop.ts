/**
 * How both usage buffers are written: `flush` waits for a write under way, then writes what is
 * pending; a timer flushes every `intervalMs`; `close` stops the timer and flushes, retrying a
 * failing store within `closeTimeoutMs`.
 */
export function writeLoop(options: {
  intervalMs: number;
  closeTimeoutMs: number;
  pending: () => number;
  writeAll: () => Promise<void>;
}): { flush: () => Promise<void>; close: () => Promise<void> } {
  let writing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (writing) await writing;
    if (options.pending() === 0) return;
    writing = options.writeAll().finally(() => {
      writing = undefined;
    });
    await writing;
  };
  // A tick while a write is still running would only queue behind it; skip it instead.
  const timer = setInterval(() => {
    if (!writing) void flush();
  }, options.intervalMs);
  timer.unref();
  return {
    flush,
    async close() {
      clearInterval(timer);
      // The database may be down at the moment of shutdown: keep trying, within a bound, rather
      // than dropping what was counted.
      const deadline = Date.now() + options.closeTimeoutMs;
      await flush();
      while (options.pending() > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await flush();
      }
    },
  };
}
