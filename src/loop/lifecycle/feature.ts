import type { ServiceFeature } from '../host/feature.ts';
import { registerLifecycleRoutes } from './routes.ts';
import type { LifecycleContext } from './context.ts';

/** Each deprecated version's migration guide (the lifecycle document itself is the plugin's). */
export const lifecycleRoutesFeature: ServiceFeature<LifecycleContext> = {
  name: 'lifecycle-routes',
  install: ({ app, bundle, runtime, clock, api }) =>
    registerLifecycleRoutes(app, { bundle, runtime, clock, prefix: api.prefix, title: api.title }),
};
