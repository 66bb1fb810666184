import type { IncomingMessage } from 'node:http';
import { parseAccept } from '../core/negotiation/index.ts';
import { createApiScope, type ApiScope } from './api-scope.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';
import { stateOf } from './pipeline/request-state.ts';
import type { VersionBundle } from '../core/versions/index.ts';

/** The segments under the prefix that name no version's resource: `Accept` never moves them. */
export const reservedSegments: readonly string[] = ['versions', 'deprecations'];

interface NegotiationOptions {
  prefix: string;
  reserved?: string[];
}

/** Fastify's `rewriteUrl`: `/api/users` whose `Accept` names a version is routed as `/api/v<n>/users`. */
export function createVersionRewriter(
  options: NegotiationOptions & { bundle: VersionBundle; vendor: string },
): (req: IncomingMessage) => string {
  const scope = createApiScope(options.prefix);
  const base = `${options.prefix}/`;
  const reserved = new Set(options.reserved ?? []);
  return (req) => {
    const url = req.url ?? '/';
    if (!isUnversionedPath(scope, url, reserved)) return url;
    const accept = req.headers.accept;
    const info = parseAccept(Array.isArray(accept) ? accept.join(', ') : accept, { vendor: options.vendor });
    const [version] = info.versions;
    if (info.versions.length !== 1 || info.malformed.length > 0 || !options.bundle.byNumber(version!)) return url;
    return `${base}v${version}/${url.slice(base.length)}`;
  };
}

function isUnversionedPath(scope: ApiScope, url: string, reserved: ReadonlySet<string>): boolean {
  const base = `${scope.prefix}/`;
  if (!url.startsWith(base) || scope.versionOf(url)) return false;
  const segment = /^[^/?#]*/.exec(url.slice(base.length))?.[0] ?? '';
  return !reserved.has(segment);
}

export const negotiationKey = stepKey<NegotiationOptions>('negotiation');

/** The `gate:negotiation` step: the rewriter's decision, read back from the URLs into the request state. */
export const negotiationStep = defineStep({
  needs: negotiationKey,
  name: 'negotiation',
  thin: true,
  phase: 'gate',
  appliesTo: (route) => route.api,
  create: (options) => {
    const scope = createApiScope(options.prefix);
    const reserved = new Set(options.reserved ?? reservedSegments);
    return (request, _reply, route) => {
      const original = request.originalUrl;
      const rewritten = original !== request.url;
      // A route under a version, reached by its own URL, names its version: nothing to note.
      if (!rewritten && route.url !== undefined && route.version !== undefined) return;
      if (rewritten && !scope.versionOf(original)) {
        const state = stateOf(request);
        state.unversioned = true;
        state.versionFromAccept = true;
      } else if (isUnversionedPath(scope, original, reserved)) stateOf(request).unversioned = true;
    };
  },
});
