import { cachingKey } from '../../http/caching.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import type { ServiceFeature } from '../host/feature.ts';
import { registerProblemDocs } from '../../kernel/app/problem-docs.ts';
import type { LifecycleContext } from './context.ts';

/** ETags and `Cache-Control` (private for anything that needs a credential), and the problem type pages. */
export const cachingFeature: ServiceFeature<LifecycleContext> = {
  name: 'caching',
  install: ({ app, requiredRole }) => {
    provideSteps(app, [[cachingKey, { isPrivate: (request) => requiredRole(request) !== undefined }]]);
    registerProblemDocs(app);
  },
};
