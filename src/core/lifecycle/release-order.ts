import { formatIsoInstant } from '../time/index.ts';

/** One version, in the order it was declared, with what is known of its release. */
export interface ReleaseInput {
  name: string;
  /** A date the user declared; it must not go back from one version to the next. */
  releasedAt?: number | undefined;
  /** A default date (the service's built-in ones), used only where it keeps the declared order. */
  fallback?: number | undefined;
}

/** A version's release instant; `declared` is false for a stand-in that only keeps the order. */
export interface OrderedRelease {
  name: string;
  releasedAt: number;
  declared: boolean;
}

const YEAR_MS = 366 * 86_400_000;

/** The declared order: versions only the config lists (removed, without code) first, then the bundle's. */
export function declaredOrder(options: { configured: readonly string[]; bundle: readonly string[] }): string[] {
  return [...options.configured.filter((name) => !options.bundle.includes(name)), ...options.bundle];
}

/**
 * Release instants that rise in the declared order. The core sorts versions by `releasedAt`, so a
 * version without a date gets a stand-in between its neighbours: a missing date never reorders
 * versions. Declared dates that go back are returned as problems, since no instant could honour both.
 */
export function orderReleases(inputs: readonly ReleaseInput[]): { releases: OrderedRelease[]; problems: string[] } {
  const problems: string[] = [];
  let lastDeclared: { name: string; at: number } | undefined;
  for (const input of inputs) {
    if (input.releasedAt === undefined) continue;
    if (lastDeclared && input.releasedAt <= lastDeclared.at) {
      problems.push(
        `${input.name} is released at ${formatIsoInstant(input.releasedAt)}, not after ${lastDeclared.name} ` +
          `(${formatIsoInstant(lastDeclared.at)}), which is declared before it; versions are ordered as declared, so each releasedAt must be later than the one before`,
      );
    }
    lastDeclared = { name: input.name, at: input.releasedAt };
  }
  const releases: OrderedRelease[] = [];
  let previous: number | undefined;
  inputs.forEach((input, index) => {
    const nextIndex = inputs.findIndex((v, i) => i > index && v.releasedAt !== undefined);
    const next = inputs[nextIndex]?.releasedAt;
    const fits = (at: number | undefined): at is number =>
      at !== undefined && (previous === undefined || at > previous) && (next === undefined || at < next);
    let releasedAt: number;
    let declared = true;
    if (input.releasedAt !== undefined) releasedAt = input.releasedAt;
    else if (fits(input.fallback)) releasedAt = input.fallback;
    else {
      declared = false;
      const waiting = (nextIndex === -1 ? inputs.length : nextIndex) - index;
      if (next === undefined) releasedAt = (previous ?? 0) + YEAR_MS;
      else if (previous === undefined) releasedAt = next - waiting * YEAR_MS;
      else releasedAt = previous + Math.floor((next - previous) / (waiting + 1));
    }
    previous = releasedAt;
    releases.push({ name: input.name, releasedAt, declared });
  });
  return { releases, problems };
}
