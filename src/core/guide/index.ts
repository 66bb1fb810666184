export { createMigrationGuide } from './create-migration-guide.ts';
export type { MigrationGuideOptions } from './create-migration-guide.ts';
export { toMarkdown } from './to-markdown.ts';
export { toHtml, escapeHtml } from './to-html.ts';
export { toJson } from './to-json.ts';
export { toGuideEntry } from './behaviour.ts';
export { elementGuideEntries } from './element-entries.ts';
export type { GuideElements } from './element-entries.ts';
export type { GuideEntry, GuideTimeline, MigrationGuide } from './types.ts';
