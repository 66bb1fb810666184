import { defineVersions, type VersionBundle, type VersionDeclaration } from '../../core/versions/index.ts';
import { headOperations } from './operations.ts';
import { headSchemas } from './schemas.ts';
import { publishedVersions } from './versions/index.ts';

export { headOperations } from './operations.ts';
export { headSchemas } from './schemas.ts';
export { publishedVersions } from './versions/index.ts';

/**
 * The service's version bundle, validated: a bad definition throws here, at start.
 *
 * @example
 * ```ts
 * const bundle = createApiBundle();
 * ```
 */
export function createApiBundle(versions: VersionDeclaration[] = publishedVersions): VersionBundle {
  return defineVersions({ head: { schemas: headSchemas, operations: headOperations }, versions });
}
