import { diffOpenApi } from '../../core/compat/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { createMigrationGuide, type MigrationGuide } from '../../core/guide/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { ElementDeprecation } from '../../core/lifecycle/index.ts';
import { toOpenApiDocument, type ApiVersion, type VersionBundle } from '../../core/versions/index.ts';
import type { EndpointDeprecation } from '../../kernel/ports/index.ts';
import type { LifecycleRuntime } from './runtime.ts';

/** The migration guide from a version to its replacement (or `to`), from the two versions' documents. */
export function buildServiceGuide(options: {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  from: string;
  /** A later version than `from`; its replacement by default. */
  to?: string;
  now: number;
  title: string;
}): MigrationGuide {
  const { bundle, runtime, from } = options;
  const entry = runtime.document().versions.find((v) => v.name === from);
  const old = bundle.get(from);
  const toName = options.to ?? entry?.replacement;
  const target = toName ? bundle.get(toName) : undefined;
  if (options.to !== undefined && (!target || !old || target.index <= old.index))
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `No migration guide from ${from} to ${options.to}: name two versions, the second later than the first (${bundle.versions.map((v) => v.name).join(', ')}).`,
    });
  const elements = runtime.elements().filter((e) => e.version === from);
  const endpoints = runtime.endpointDeprecations().filter((e) => e.version === from);
  // A version that stays, with endpoints or elements deprecated in it: their own guide.
  if (entry && old && !target && (elements.length > 0 || endpoints.length > 0))
    return elementGuide({ ...options, version: old, elements, endpoints });
  if (!entry || !old || !target) {
    throw new VersionaryError({
      code: ErrorCode.NotFound,
      detail: `No migration guide for ${from}: it is not a deprecated version with a replacement, and nothing is deprecated in it.`,
    });
  }
  // One base path for both, so the diff compares operations, not version prefixes.
  const doc = (version: typeof old) => toOpenApiDocument({ version, title: options.title, basePath: '/api' });
  const documents = { base: doc(old), revision: doc(target) };
  const { changes } = diffOpenApi({ ...documents, clock: { now: () => options.now } });
  const notes = bundle.versions
    .slice(old.index + 1, target.index + 1)
    .flatMap((v) => v.changes.map((c) => `${v.name}: ${c.description}`));
  const deprecatedAt = entry.deprecatedAt ?? formatIsoInstant(options.now);
  return createMigrationGuide({
    from,
    to: target.name,
    changes,
    notes,
    documents,
    deprecatedAt,
    ...(entry.sunsetAt ? { sunsetAt: entry.sunsetAt } : {}),
    // The old version's own deprecated fields and parameters, on the same base path as the diff.
    elements: { deprecations: runtime.elements(), version: old, basePath: '/api' },
    endpoints: { deprecations: endpoints, version: from, successor: target, basePath: '/api' },
    title: `Migrating from ${from} to ${target.name}`,
  });
}

/** The guide of a version's own deprecated endpoints and elements, for a version with no replacement. */
function elementGuide(options: {
  runtime: LifecycleRuntime;
  version: ApiVersion;
  elements: readonly ElementDeprecation[];
  endpoints: readonly EndpointDeprecation[];
}): MigrationGuide {
  const { version, elements, endpoints } = options;
  const dated = [...elements, ...endpoints];
  const sunsets = dated.map((e) => e.sunsetAt);
  return createMigrationGuide({
    from: version.name,
    to: version.name,
    changes: [],
    deprecatedAt: formatIsoInstant(Math.min(...dated.map((e) => e.deprecatedAt))),
    sunsetAt: formatIsoInstant(Math.min(...sunsets)),
    removedAt: formatIsoInstant(Math.max(...sunsets)),
    elements: { deprecations: options.runtime.elements(), version, basePath: '/api' },
    endpoints: { deprecations: endpoints, version: version.name, basePath: '/api' },
    title: `Deprecated ${deprecatedKinds(elements.length > 0, endpoints.length > 0)} of ${version.name}`,
  });
}

// The guide's title names what it lists, so one with fields only reads as it always has.
function deprecatedKinds(hasElements: boolean, hasEndpoints: boolean): string {
  if (!hasEndpoints) return 'fields and parameters';
  return hasElements ? 'endpoints, fields and parameters' : 'endpoints';
}
