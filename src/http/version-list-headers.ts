import type { LifecycleSource } from '../core/lifecycle/index.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';

export interface VersionListHeadersOptions {
  lifecycle: LifecycleSource;
  /** `true`: on every answer; `'api'`: on the API's only; `false`: none. */
  versionListHeaders: boolean | 'api';
  prefix: string;
}

export const versionListHeadersKey = stepKey<VersionListHeadersOptions>('version-list-headers');

/** The `gate:version-list-headers` step: off when the option is, or the lifecycle has no list. */
export const versionListHeadersStep = defineStep({
  needs: versionListHeadersKey,
  name: 'version-list-headers',
  thin: true,
  phase: 'gate',
  appliesTo: (route, o) => o.versionListHeaders !== 'api' || route.api,
  create: (o) => {
    const { lifecycle } = o;
    if (!o.versionListHeaders || !lifecycle.listHeaders) return undefined;
    const list = lifecycle.listHeaders.bind(lifecycle);
    return (_request, reply) => void reply.headers(list());
  },
});
