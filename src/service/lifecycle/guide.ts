import { diffOpenApi } from '../../core/compat/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { createMigrationGuide, type MigrationGuide } from '../../core/guide/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import { toOpenApiDocument, type VersionBundle } from '../../core/versions/index.ts';
import type { LifecycleRuntime } from './runtime.ts';

/**
 * The migration guide from a version to its replacement, generated from the two versions' real
 * OpenAPI documents, the declared change descriptions and the lifecycle dates.
 */
export function buildServiceGuide(options: {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  from: string;
  now: number;
  /** The API's title (`api.title`), for the documents the guide compares. */
  title: string;
}): MigrationGuide {
  const { bundle, runtime, from } = options;
  const entry = runtime.document().versions.find((v) => v.name === from);
  const old = bundle.get(from);
  const target = entry?.replacement ? bundle.get(entry.replacement) : undefined;
  if (!entry || !old || !target) {
    throw new VersionaryError({
      code: ErrorCode.NotFound,
      detail: `No migration guide for ${from}: it is not a deprecated version with a replacement.`,
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
    title: `Migrating from ${from} to ${target.name}`,
  });
}
