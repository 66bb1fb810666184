import type { ServiceFeature } from '../app/feature.ts';
import { installOps } from './install-ops.ts';

/** Probes, metrics, request ids and the shutdown state (`docs/operations.md`). */
export const opsFeature: ServiceFeature = {
  name: 'ops',
  install: ({ app, options, ops, storage, runtime, recorder, api }) => {
    installOps(app, {
      ...(options.ops ? { wiring: options.ops } : {}),
      ops,
      storage,
      runtime,
      recorder,
      apiPrefix: api.prefix,
    });
  },
};
