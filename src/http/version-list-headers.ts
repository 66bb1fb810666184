import type { FastifyInstance } from 'fastify';
import type { LifecycleSource } from '../core/lifecycle/index.ts';
import { installListedSteps } from './pipeline/listed-steps.ts';
import { defineStep } from './pipeline/step-definition.ts';

/** Options for {@link installVersionListHeaders}. */
export interface VersionListHeadersOptions {
  lifecycle: LifecycleSource;
  /** `true`: on every answer; `'api'`: on the API's only; `false`: none. */
  versionListHeaders: boolean | 'api';
  prefix: string;
}

/** The lifecycle's version list headers on every answer (or the API's only), when it has them. */
export function installVersionListHeaders(app: FastifyInstance, options: VersionListHeadersOptions): void {
  installListedSteps({ app, prefix: options.prefix }, 'version-list-headers', options);
}

declare module './pipeline/step-definition.ts' {
  interface StepResources {
    'version-list-headers': VersionListHeadersOptions;
  }
}

/** The `gate:version-list-headers` step: off when the option is, or the lifecycle has no list. */
export const versionListHeadersStep = defineStep({
  part: 'version-list-headers',
  name: 'version-list-headers',
  phase: 'gate',
  appliesTo: (route, o) => o.versionListHeaders !== 'api' || route.api,
  create: (o) => {
    const { lifecycle } = o;
    if (!o.versionListHeaders || !lifecycle.listHeaders) return undefined;
    const list = lifecycle.listHeaders.bind(lifecycle);
    return (_request, reply) => void reply.headers(list());
  },
});
