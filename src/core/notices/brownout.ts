import type { Brownout } from './types.ts';

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
