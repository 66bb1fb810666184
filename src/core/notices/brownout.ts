import type { Brownout } from './types.ts';

/**
 * The brownout in force for a call right now, if any: a window covering the instant, for the
 * called version (or that endpoint), global, aimed at this client, or a rehearsal of this very
 * client. A call without a client is refused only by a brownout of every client.
 */
export function activeBrownout(options: {
  brownouts: readonly Brownout[];
  version: string;
  endpoint: string;
  clientId?: string;
  now: number;
  /** Whether this client is spared this brownout (an extension of its access to the subject). */
  exempt?: (brownout: Brownout, clientId: string | undefined) => boolean;
}): Brownout | undefined {
  const { now } = options;
  return options.brownouts.find(
    (b) =>
      b.version === options.version &&
      (b.endpoint === undefined || b.endpoint === options.endpoint) &&
      now >= b.startsAt &&
      now < b.endsAt &&
      (b.clientId === undefined || b.clientId === options.clientId) &&
      (b.clients === undefined || (options.clientId !== undefined && b.clients.includes(options.clientId))) &&
      !options.exempt?.(b, options.clientId),
  );
}

/**
 * Problems with a planned brownout: its window must be ordered, and it must fall inside the
 * subject's sunset window (after the deprecation, before the removal). Empty when it is sound.
 */
export function checkBrownout(options: {
  brownout: Pick<Brownout, 'startsAt' | 'endsAt'>;
  deprecatedAt: number;
  sunsetAt: number;
}): string[] {
  const { brownout: b } = options;
  const problems: string[] = [];
  if (!(b.endsAt > b.startsAt)) problems.push('a brownout must end after it starts');
  if (b.startsAt < options.deprecatedAt) problems.push('a brownout cannot start before the deprecation');
  if (b.endsAt > options.sunsetAt)
    problems.push('a brownout must end by the sunset date: after it the subject is removed for good');
  return problems;
}

/** Whether a brownout refuses (and is announced to) this client: every client, or one it targets. */
export function targetsClient(brownout: Brownout, clientId: string): boolean {
  return brownout.clients === undefined || brownout.clients.includes(clientId);
}
