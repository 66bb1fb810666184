import { defineVersions, type VersionBundle, type VersionDeclaration } from '../../core/versions/index.ts';
import { headOperations } from './operations.ts';
import { headSchemas } from './schemas.ts';
import { publishedVersions } from './versions/index.ts';

/** The head the service's handlers are typed from: `defineHandlers(apiHead, ...)`. */
export const apiHead = { schemas: headSchemas, operations: headOperations };
export type ApiHead = typeof apiHead;

/** The service's version bundle, validated: a bad definition throws here, at start. */
export function createApiBundle(versions: VersionDeclaration[] = publishedVersions): VersionBundle<ApiHead> {
  return defineVersions({ head: apiHead, versions });
}
