import { installSecurityHeaders } from '../../http/index.ts';
import type { ServiceFeature } from '../host/feature.ts';

/** Security headers on every answer (problems come from the versionary plugin, in the resources feature). */
export const securityFeature: ServiceFeature = {
  name: 'security-headers',
  install: ({ app }) => installSecurityHeaders(app),
};
