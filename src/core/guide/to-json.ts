import type { MigrationGuide } from './types.ts';

/**
 * Render a guide as JSON (the guide object itself, pretty-printed).
 *
 * @example
 * ```ts
 * JSON.parse(toJson(guide)).timeline.sunsetAt;
 * ```
 */
export function toJson(guide: MigrationGuide): string {
  return `${JSON.stringify(guide, null, 2)}\n`;
}
