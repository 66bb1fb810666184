import type { FastifyRequest } from 'fastify';
import { installProblemHandling } from '../http/problem-handling.ts';
import { versionary, type CallEvent } from '../http/plugin/index.ts';
import { removedVersionOf } from '../http/removed-gate.ts';
import type { ServiceFeature } from '../kernel/app/feature.ts';
import { clientIdOf, usageClientIdOf, usageIdentityOf } from '../loop/access/auth/principal.ts';
import { removedDocumentInfo } from '../loop/lifecycle/removed-document.ts';
import { gatewayDocumentBuilder } from './document.ts';
import type { GatewaySettings } from '../kernel/config/gateway-settings.ts';

/**
 * The gateway's API: every version forwarded to its upstream through the same `versionary`
 * plugin the reference service uses for its handlers, so routing (path or `Accept`), problems,
 * the removed gate, lifecycle headers and usage per client are the same code. The credential of
 * a Versionary key stays at the gateway; the client id goes upstream in `clientHeader`.
 */
export function createGatewayFeature(options: {
  settings: GatewaySettings;
  documents: Record<string, Record<string, unknown>>;
}): ServiceFeature {
  const { settings, documents } = options;
  const upstreams = Object.fromEntries(settings.versions.map((v) => [v.name, v.upstream]));
  const keepsCredential = settings.identify.kind !== 'apiKeys';
  return {
    name: 'gateway',
    async install(context) {
      const { app, bundle, clock, runtime, recorder, operations, options: appOptions, api } = context;
      // The gateway owns its app: every route and every unknown path answers a problem.
      installProblemHandling(app, {
        bundle,
        prefix: api.prefix,
        vendor: api.vendor,
        removedVersion: removedVersionOf(runtime),
      });
      await app.register(versionary, {
        notFound: false,
        bundle,
        prefix: api.prefix,
        vendor: api.vendor,
        clientIdOf,
        clock,
        lifecycle: runtime,
        forward: {
          upstreams,
          timeoutMs: settings.timeoutMs,
          underscoresInHeaders: settings.underscoresInHeaders,
          requestHeaders: (headers, request) => {
            // Left out by value, not by `delete`: a deleted name makes the object a slow dictionary.
            if (!keepsCredential) headers.authorization = headers['x-api-key'] = undefined;
            headers[settings.clientHeader] = usageIdentityOf(request).clientId;
            return headers;
          },
        },
        onUsage: (call, request) => recorder.record({ ...call, ...usageIdentityOf(request) }),
        // Every call of every version, counted per operation and client for `versionary diff`.
        ...(operations
          ? {
              onCall: (call: CallEvent, request: FastifyRequest) => operations.count(call, usageClientIdOf(request)),
            }
          : {}),
        onVersionedRequest: appOptions.onVersionedRequest ?? [],
        openapi: {
          title: api.title,
          document: gatewayDocumentBuilder({
            documents,
            removedInfo: (name) =>
              removedDocumentInfo({ runtime, name, status: context.config.settings.lifecycle.removedStatus }),
          }),
        },
      });
    },
  };
}
