import type { FastifyInstance } from 'fastify';
import type { Brownout } from '../../core/notices/index.ts';

const kBrownouts = 'versionaryBrownouts';

/** Provide the brownouts the notices part schedules to the parts after it (the portal shows them). */
export function provideBrownouts(app: FastifyInstance, brownouts: () => Brownout[]): void {
  app.decorate(kBrownouts, brownouts);
}

/** The notices part's brownouts, when it is registered before the caller. */
export function brownoutsOf(app: FastifyInstance): (() => Brownout[]) | undefined {
  return app.hasDecorator(kBrownouts)
    ? (app as unknown as Record<typeof kBrownouts, () => Brownout[]>)[kBrownouts]
    : undefined;
}
