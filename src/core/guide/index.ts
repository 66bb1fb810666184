export { createMigrationGuide } from './create-migration-guide.ts';
export type { MigrationGuideOptions } from './create-migration-guide.ts';
export { toHtml, toJson, toMarkdown } from './render.ts';
export { toGuideEntry } from './behaviour.ts';

export type { MigrationGuide } from './types.ts';
