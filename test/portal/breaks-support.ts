import {
  defineVersionChange,
  defineVersions,
  fieldRemoved,
  isPlainObject,
  type VersionBundle,
} from '../../src/core/versions/index.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { headOperations } from '../../src/reference/api/operations.ts';
import { headSchemas } from '../../src/reference/api/schemas.ts';
import { publishedVersions } from '../../src/reference/api/versions/index.ts';

/**
 * The published v1 and v2 plus one more v2 change that reaches `GET /users/{id}`: the single user
 * loses `login`. v1 to v2 then breaks `GET /users` (a list becomes an object), the posts list and
 * every operation answering `UserDetail`, so a page can be shown to pick out only a client's own.
 */
export function breaksBundle(): VersionBundle {
  const loginRemoved = defineVersionChange({
    description: 'The single user no longer carries `login`.',
    instructions: [fieldRemoved({ schema: 'UserDetail', field: 'login', definition: { type: 'string' } })],
    // v1 answers carry the login the user had: its name, lower-cased.
    responses: {
      UserDetail: (body) => (isPlainObject(body) ? { ...body, login: String(body.name).toLowerCase() } : body),
    },
  });
  const [v1, v2] = publishedVersions;
  return defineVersions({
    head: { schemas: headSchemas, operations: headOperations },
    versions: [v1!, { ...v2!, changes: [...v2!.changes!, loginRemoved] }],
  });
}

/** The reference bundle, for the tests that need no extra change. */
export const referenceBundle = (): VersionBundle => createApiBundle();
