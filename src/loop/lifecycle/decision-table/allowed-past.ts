import type { UsageStore } from '../../../kernel/ports/index.ts';

/** The clients that had called a subject before its closing, each asked as the lifecycle asks (`calledBefore`). */
export function allowedPastClosing(options: {
  usage: Pick<UsageStore, 'byClient' | 'elementCalls' | 'calledBefore'>;
  flush: () => Promise<void>;
}): (closing: { version: string; endpoint?: string; element?: string; at: number }) => Promise<string[]> {
  return async ({ version, endpoint, element, at }) => {
    await options.flush();
    // An element's calls are counted in their own rollup only: its candidates are the clients seen using it.
    const candidates =
      element === undefined
        ? (await options.usage.byClient({ since: 0, until: at, version })).map((r) => r.clientId)
        : (await options.usage.elementCalls())
            .filter((r) => r.version === version && r.element === element && r.firstSeen < at)
            .map((r) => r.clientId);
    const allowed: string[] = [];
    for (const clientId of new Set(candidates)) {
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
