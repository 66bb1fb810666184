import type { ServiceFeature } from '../host/feature.ts';
import { installOps } from '../../kernel/ops/install-ops.ts';
import { lifecycleClientOf } from '../../kernel/ports/principal.ts';
import type { LifecycleContext } from './context.ts';

/** Probes, metrics, request ids and the shutdown state (`docs/operations.md`). */
export const opsFeature: ServiceFeature<LifecycleContext> = {
  name: 'ops',
  install: ({ app, options, ops, storage, runtime, recorder, api }) => {
    installOps(app, {
      ...(options.ops ? { wiring: options.ops } : {}),
      ops,
      storage,
      runtime,
      recorder,
      apiPrefix: api.prefix,
      clientOf: lifecycleClientOf,
    });
  },
};
