import type { Brownout } from './types.ts';

/**
 * The brownout in force for a call right now, if any: a window covering the instant, for the
 * called version (or that endpoint), global or a rehearsal of this very client.
 */
export function activeBrownout(options: {
  brownouts: readonly Brownout[];
  version: string;
  endpoint: string;
  clientId?: string;
  now: number;
}): Brownout | undefined {
  const { now } = options;
  return options.brownouts.find(
    (b) =>
      b.version === options.version &&
      (b.endpoint === undefined || b.endpoint === options.endpoint) &&
      (b.clientId === undefined || b.clientId === options.clientId) &&
      now >= b.startsAt &&
      now < b.endsAt,
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
