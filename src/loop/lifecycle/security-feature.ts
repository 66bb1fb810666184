import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { securityHeadersKey } from '../../http/security-headers.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleContext } from './context.ts';

/** Security headers on every answer (problems come from the versionary plugin, in the resources feature). */
export const securityFeature: ServiceFeature<LifecycleContext> = {
  name: 'security-headers',
  install: ({ app }) => provideSteps(app, [[securityHeadersKey, {}]]),
};
