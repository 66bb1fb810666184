import type { VersionDeclaration } from '../../../core/versions/index.ts';

/**
 * v1: the first published version. It declares no changes; its schemas are derived from the head
 * by undoing every later version's changes.
 */
export const v1: VersionDeclaration = { name: 'v1' };
