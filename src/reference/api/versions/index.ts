import type { VersionDeclaration } from '../../../core/versions/index.ts';
import { v2 } from './v2.ts';

/** Every published version, oldest first: publishing v3 adds `v3.ts` here; handlers do not change. */
export const publishedVersions: VersionDeclaration[] = [
  // v1 declares no changes: its schemas are the head with every later version's changes undone.
  { name: 'v1' },
  v2,
];
