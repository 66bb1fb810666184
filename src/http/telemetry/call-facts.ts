import type { Attributes } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { ApiScope } from '../api-scope.ts';
import { stateOf } from '../pipeline/request-state.ts';
import { routeUrlOf } from '../route-url.ts';
import { VersionaryAttribute as A } from './attribute-names.ts';

/** What the steps of a request found, read once for the span and the counter. */
export interface CallFacts {
  version: string;
  /** The matched route's pattern; `undefined` for a path no route matched. */
  route: string | undefined;
  deprecated: boolean;
  clientId: string | undefined;
  attributes: Attributes;
}

/**
 * The `versionary.*` attributes of a call, from what its steps already wrote in the request state
 * (the version's source, the verdict applied, the elements used, the rule that answered) and the
 * client as the app identifies it: no rule is decided again here.
 */
export function callFactsOf(
  request: FastifyRequest,
  o: { scope: ApiScope; clientOf: ((request: FastifyRequest) => string | undefined) | undefined },
): CallFacts | undefined {
  const route = routeUrlOf(request);
  const version = o.scope.versionOf(route ?? request.url);
  if (version === undefined) return undefined;
  const state = stateOf(request);
  const deprecated = state.deprecated === true;
  const attributes: Attributes = {
    [A.version]: version,
    [A.versionSource]: state.versionFromAccept ? 'accept' : 'path',
    [A.deprecated]: deprecated,
  };
  // The sunset and replacement only beside `deprecated: true`, as the answer's headers go together.
  const verdict = deprecated ? (state.lifecycleVerdict ?? state.verdict?.verdict) : undefined;
  if (verdict?.deprecated && verdict.sunsetAt !== undefined) attributes[A.sunset] = formatIsoInstant(verdict.sunsetAt);
  if (verdict?.deprecated && verdict.replacement !== undefined) attributes[A.replacement] = verdict.replacement;
  if (state.deprecatedElements?.length) attributes[A.deprecatedElements] = [...state.deprecatedElements];
  if (state.decision !== undefined) attributes[A.decision] = state.decision;
  const clientId = o.clientOf?.(request);
  if (clientId !== undefined) attributes[A.clientId] = clientId;
  return { version, route, deprecated, clientId, attributes };
}
