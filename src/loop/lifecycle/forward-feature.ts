import { pickDefined } from '../../core/config/index.ts';
import { versionary, type OpenApiDocumentBuilder } from '../../http/plugin/index.ts';
import { forwardsUndocumented } from '../../http/forwarded-catch-all.ts';
import type { DerivedVersionRoute } from '../../http/forward-options.ts';
import type { ServiceFeature } from '../host/feature.ts';
import type { VersionaryError } from '../../core/errors/index.ts';
import { usageIdentityOf } from '../../kernel/ports/principal.ts';
import { versionaryBase } from './api-feature.ts';
import { markEndpointDates, versionDocumentInfo } from './removed-document.ts';
import type { LifecycleContext } from './context.ts';
import { lifecycleSection } from './settings.ts';
import {
  annotateElements,
  deprecatedOperation,
  methodOfMember,
  operationMembers,
  verdictDeprecation,
} from '../../core/versions/index.ts';
import type { LifecycleRuntime } from './runtime.ts';

/**
 * The lifecycle part's `forward` option: every version of the API forwarded to an upstream in
 * any language, instead of handlers (what `versionary gateway` registers).
 */
export interface LoopForward {
  /** The upstream base URL of each version. */
  upstreams: Record<string, string>;
  /** The OpenAPI document of each version, as the upstream describes it (served as it is, with its lifecycle marks). */
  documents: Record<string, Record<string, unknown>>;
  /** The header the client id goes upstream in. */
  clientHeader: string;
  /** Whether the client's credential goes upstream too (it is the upstream's, not a Versionary key). */
  keepsCredential: boolean;
  /** How long an upstream answer may take. */
  timeoutMs?: number;
  /** Forward header names with underscores (dropped by default, as nginx does). */
  underscoresInHeaders?: boolean;
  /** Which forwarding headers go upstream: `x-forwarded` (default), `forwarded` (RFC 7239) or `both`. */
  forwardedHeaders?: 'both' | 'forwarded' | 'x-forwarded';
  /** Versions whose paths no document declares are forwarded too (`forwardUndocumented`); else they are a 404. */
  forwardUndocumented?: readonly string[];
  /** Versions served from a newer one by declared changes (`derivedFrom` in the gateway section). */
  derived?: Record<string, DerivedVersionRoute>;
  /**
   * Answer every API call with this problem instead of forwarding it: the control plane, when
   * nginx is the data plane. The lifecycle's documents, the portal and the management API stay.
   */
  refuse?: () => VersionaryError;
  /** More routes and tasks beside the forwarded API, with the service's context (the control plane's). */
  install?: (context: LifecycleContext) => void | Promise<void>;
}

/** The forwarded API, through the same `versionary` plugin as handlers; a Versionary key's credential stays here. */
export function createForwardFeature(forward: LoopForward): ServiceFeature<LifecycleContext> {
  const { upstreams, documents, keepsCredential, clientHeader } = forward;
  return {
    name: 'forward',
    async install(context) {
      const { app, runtime, api } = context;
      // Forwarding owns its app (the gateway's): every route and every unknown path answers a problem.
      await app.register(versionary, {
        ...versionaryBase(context, { forwardsUndocumented: (version) => forwardsUndocumented(forward, version) }),
        forward: {
          upstreams,
          ...pickDefined(forward, [
            'timeoutMs',
            'underscoresInHeaders',
            'forwardedHeaders',
            'refuse',
            'derived',
            'forwardUndocumented',
          ]),
          // The credential of a Versionary key stays here; the client id always comes from the gateway.
          ...(keepsCredential ? {} : { withheldHeaders: ['authorization', 'x-api-key'] }),
          setHeaders: { [clientHeader]: (request) => usageIdentityOf(request).clientId },
        },
        openapi: {
          title: api.title,
          document: gatewayDocumentBuilder({
            documents,
            info: (name) =>
              versionDocumentInfo({ runtime, name, status: lifecycleSection.of(context.config).removedStatus }),
            runtime,
          }),
        },
      });
      await forward.install?.(context);
    },
  };
}

/** A proxied version's document: the configured one, paths below the version base, marked as the service's are. */
function gatewayDocumentBuilder(options: {
  documents: Record<string, Record<string, unknown>>;
  /** A version's lifecycle `info` members (a removed version's mark, the access dates), as the service marks its own. */
  info: (name: string) => Record<string, unknown>;
  /** Whose endpoint deprecations carry their access dates onto the operations. */
  runtime: Pick<LifecycleRuntime, 'endpointDeprecations'>;
}): OpenApiDocumentBuilder {
  return ({ version, basePath, verdict, elements }) => {
    const doc = structuredClone(options.documents[version.name] ?? {});
    const paths: Record<string, unknown> = {};
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
      const relative = path === basePath ? '/' : path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
      for (const method of operationMembers) {
        const op = item?.[method] as Record<string, unknown> | undefined;
        if (!op || typeof op !== 'object') continue;
        const v = verdict({ method: methodOfMember(method), path: relative });
        if (v.deprecated) op.deprecated = true;
        const facts = verdictDeprecation(v);
        if (facts) item[method] = { ...op, ...deprecatedOperation(op.description, facts) };
      }
      paths[relative] = item;
    }
    // Relative: the document is read from the gateway, so its base resolves against the gateway's own origin.
    const info = { ...(doc.info as Record<string, unknown> | undefined), ...options.info(version.name) };
    const served = { ...doc, info, servers: [{ url: basePath }], paths };
    markEndpointDates(served, { runtime: options.runtime, version: version.name, basePath: '' });
    // Its paths are relative to the version base by now, as the elements' are.
    if (elements) annotateElements({ doc: served, version: version.name, basePath: '', elements });
    return served;
  };
}
