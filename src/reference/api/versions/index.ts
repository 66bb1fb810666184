import type { VersionDeclaration } from '../../../core/versions/index.ts';
import { v2 } from './v2.ts';

/**
 * Every published version, oldest first. Publishing v3 means adding `v3.ts` with its changes and
 * listing it here; handlers do not change.
 */
export const publishedVersions: VersionDeclaration[] = [
  // v1 declares no changes: its schemas are the head with every later version's changes undone.
  { name: 'v1' },
  v2,
];
