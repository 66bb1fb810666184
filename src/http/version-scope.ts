import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { fieldSchemas, servedSchemas } from '../core/lifecycle/index.ts';
import { createFieldSelector, type ApiVersion } from '../core/versions/index.ts';
import type { createResponseChecks } from './response-check.ts';
import type { VersionedApiOptions, VersionedRequestHook } from './versioned-api-options.ts';

/** What every operation of one version shares, made once per version at start. */
export interface VersionScope extends VersionedApiOptions {
  version: ApiVersion;
  checks: ReturnType<typeof createResponseChecks> | undefined;
  validatorCompiler: FastifySchemaCompiler<unknown>;
  /** The version's path, `<prefix>/<name>`. */
  base: string;
  /** The names of every version, for negotiation. */
  supported: string[];
  select: ReturnType<typeof createFieldSelector>;
  /** The schemas of this version's document that a field deprecation reaches. */
  reach: (element: Parameters<typeof fieldSchemas>[0]) => ReturnType<typeof fieldSchemas>;
  clientIdOf: (request: FastifyRequest) => string;
  hooks: VersionedRequestHook[];
}

/** The scope of `version`, over the API's options. */
export function createVersionScope(
  options: VersionedApiOptions & Pick<VersionScope, 'version' | 'checks' | 'validatorCompiler'>,
): VersionScope {
  const { version } = options;
  // A field deprecation reaches every schema of this version's document that it names or, named once, that carries it.
  const served = options.elementUses ? servedSchemas(version) : {};
  return {
    ...options,
    base: `${options.prefix}/${version.name}`,
    supported: options.bundle.versions.map((v) => v.name),
    select: createFieldSelector(version),
    reach: (e) => fieldSchemas(e, served),
    clientIdOf: options.clientIdOf ?? ((r: FastifyRequest) => r.ip),
    hooks: options.onVersionedRequest ?? [],
  };
}
