import type { FastifyInstance } from 'fastify';
import type { Brownout } from '../../core/notices/index.ts';
import type { ExtendedAccessDecisionNotifier } from '../../kernel/ports/index.ts';

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

const kDecisionNotices = 'versionaryDecisionNotices';

/** Provide the notifier of decisions on requests for extended access to the parts after this one. */
export function provideDecisionNotices(app: FastifyInstance, notify: ExtendedAccessDecisionNotifier): void {
  app.decorate(kDecisionNotices, notify);
}

/** The notices part's notifier of decisions, when that part is registered before the caller (`notices: false`: none). */
export function decisionNoticesOf(app: FastifyInstance): ExtendedAccessDecisionNotifier | undefined {
  return app.hasDecorator(kDecisionNotices)
    ? (app as unknown as Record<typeof kDecisionNotices, ExtendedAccessDecisionNotifier>)[kDecisionNotices]
    : undefined;
}
