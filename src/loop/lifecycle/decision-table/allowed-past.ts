import type { UsageStore } from '../../../kernel/ports/index.ts';

/**
 * The clients that had called a subject (a version, an endpoint or an element of it) before its
 * closing to new clients: those with calls to the version before then, each asked as the lifecycle
 * asks it per request (`calledBefore`). Buffered calls are flushed first.
 */
export function allowedPastClosing(options: {
  usage: Pick<UsageStore, 'byClient' | 'calledBefore'>;
  flush: () => Promise<void>;
}): (closing: { version: string; endpoint?: string; element?: string; at: number }) => Promise<string[]> {
  return async ({ version, endpoint, element, at }) => {
    await options.flush();
    const rows = await options.usage.byClient({ since: 0, until: at, version });
    const allowed: string[] = [];
    for (const clientId of new Set(rows.map((r) => r.clientId))) {
      const called = await options.usage.calledBefore({
        clientId,
        version,
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(element === undefined ? {} : { element }),
        before: at,
      });
      if (called) allowed.push(clientId);
    }
    return allowed.sort();
  };
}
