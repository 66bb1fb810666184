export { createMigrationGuide } from './create-migration-guide.ts';
export type { MigrationGuideOptions } from './create-migration-guide.ts';
export { toMarkdown } from './to-markdown.ts';
export { toHtml } from './to-html.ts';
export { toJson } from './to-json.ts';
export { toGuideEntry } from './behaviour.ts';

export type { MigrationGuide } from './types.ts';
