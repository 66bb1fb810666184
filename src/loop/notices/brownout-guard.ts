import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';

/**
 * Refreshed every few seconds and after each write, so every instance agrees within that time;
 * the decision table reads them at each compilation.
 */
export async function createBrownoutCache(options: { configured: Brownout[]; load: () => Promise<Brownout[]> }) {
  const load = async (): Promise<Brownout[]> => [...options.configured, ...(await options.load())];
  let all = await load();
  return {
    configured: options.configured,
    all: () => all,
    async refresh() {
      all = await load();
    },
  };
}

export type BrownoutCache = Awaited<ReturnType<typeof createBrownoutCache>>;

/** The brownouts, and the path of the lifecycle document that lists them (`/api/versions`). */
export const brownoutListingKey = stepKey<{ cache: BrownoutCache; clock: Clock; path: string }>('brownout-listing');

/** The `serialize:brownout-listing` step: each version's planned brownouts in the lifecycle document. */
export const brownoutListingStep = defineStep({
  needs: brownoutListingKey,
  name: 'brownout-listing',
  phase: 'serialize',
  // Compiled into the lifecycle document's route alone.
  appliesTo: (route, options) => route.url === options.path,
  create: (options) => (_request, _reply, payload) =>
    typeof payload === 'object' && payload !== null ? withBrownouts(payload, options) : undefined,
});

function withBrownouts(payload: object, options: { cache: BrownoutCache; clock: Clock }): unknown {
  const document = payload as { versions?: Array<{ name: string }> };
  if (!Array.isArray(document.versions)) return payload;
  const now = options.clock.now();
  // Public: brownouts of every client only; a targeted one is told to its clients (notices, dashboard).
  const planned = options.cache
    .all()
    .filter((b) => b.clientId === undefined && b.clients === undefined && b.endsAt > now);
  return {
    ...document,
    versions: document.versions.map((v) => ({
      ...v,
      brownouts: planned
        .filter((b) => b.version === v.name)
        .map((b) => ({
          endpoint: b.endpoint ?? null,
          startsAt: formatIsoInstant(b.startsAt),
          endsAt: formatIsoInstant(b.endsAt),
        })),
    })),
  };
}
