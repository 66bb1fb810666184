import { accessFeature } from '../loop/access/auth/feature.ts';
import { adminFeature } from '../loop/management/admin/feature.ts';
import { lifecycleRoutesFeature } from '../loop/lifecycle/feature.ts';
import { noticesFeature } from '../loop/notices/feature.ts';
import { managementDocumentFeature } from '../loop/lifecycle/openapi/feature.ts';
import { opsFeature } from '../kernel/ops/feature.ts';
import { portalFeature } from '../loop/portal/feature.ts';
import { resourcesFeature } from './resources/feature.ts';
import { cachingFeature } from '../loop/lifecycle/caching-feature.ts';
import type { ServiceFeature } from '../kernel/app/feature.ts';
import { rootFeature } from './root-feature.ts';
import { securityFeature } from '../loop/lifecycle/security-feature.ts';

/**
 * The reference service: its features, installed in this order. The order is the order a request
 * meets their hooks: the resources' plugin first (problems, version list headers, the removed
 * gate), then ops, then access; the management document comes before every admin route it documents. A new feature is a folder with a
 * `feature.ts` and one line here (and one in `settings.ts` if it reads the config file).
 */
export const serviceFeatures: readonly ServiceFeature[] = [
  // First: its error and not-found handlers apply to the routes registered after it (probes,
  // metrics, admin), and its onRequest hooks (the removed gate) run before access.
  resourcesFeature,
  opsFeature,
  securityFeature,
  accessFeature,
  cachingFeature,
  managementDocumentFeature,
  noticesFeature,
  lifecycleRoutesFeature,
  portalFeature,
  adminFeature,
  rootFeature,
];
