import { installSecurityHeaders } from '../../http/index.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { LifecycleContext } from './context.ts';

/** Security headers on every answer (problems come from the versionary plugin, in the resources feature). */
export const securityFeature: ServiceFeature<LifecycleContext> = {
  name: 'security-headers',
  install: ({ app }) => installSecurityHeaders(app),
};
