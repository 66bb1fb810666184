import { verdictDeprecation } from '../../../core/versions/index.ts';
import type { OpenApiDocumentBuilder } from '../../../http/plugin/index.ts';
import type { ServiceFeature } from '../../host/feature.ts';
import { markEndpointDates, versionDocumentInfo } from '../removed-document.ts';
import { registerManagementDocument } from './management-document.ts';
import { documentInfoFor } from '../../host/api-info.ts';
import { createVersionDocument } from './version-document.ts';
import type { LifecycleContext } from '../context.ts';
import { lifecycleSection } from '../settings.ts';

/** The management API's OpenAPI document. Installed before any admin route: its onRoute hook documents each one. */
export const managementDocumentFeature: ServiceFeature<LifecycleContext> = {
  name: 'management-document',
  // Installed by the access part, which accepts tokens exactly when a JWT key is configured.
  install: ({ app, config }) => registerManagementDocument(app, { prefix: '/admin/v1', jwt: config.jwt !== undefined }),
};

/** The version documents through the plugin's seam; read per request, so the JWT scheme shows once access is in. */
export function serviceDocumentBuilder(context: LifecycleContext): OpenApiDocumentBuilder {
  return ({ version, title, basePath, verdict, openapiVersion }) => {
    const { removedStatus } = lifecycleSection.of(context.config);
    const doc = createVersionDocument({
      version,
      title,
      basePath,
      openapiVersion,
      jwt: context.config.jwt !== undefined && context.app.hasPlugin('versionary-loop-access'),
      info: {
        ...documentInfoFor(context.api.info, version.name),
        ...versionDocumentInfo({ runtime: context.runtime, name: version.name, status: removedStatus }),
      },
      elements: {
        deprecations: context.runtime.elements(),
        now: context.clock.now(),
        guideOf: (e) => context.runtime.migrationUrl(e.version),
      },
      lifecycle: (op) => {
        const v = verdict(op);
        const deprecation = verdictDeprecation(v);
        return { deprecated: v.deprecated, removedStatus, ...(deprecation ? { deprecation } : {}) };
      },
    }) as unknown as Record<string, unknown>;
    markEndpointDates(doc, { runtime: context.runtime, version: version.name, basePath });
    return doc;
  };
}
