import { formatIsoInstant } from '../../core/time/index.ts';
import type { LifecycleRuntime } from './runtime.ts';

/**
 * `info` members that mark a removed version's document: it stays readable for migration, but
 * says plainly that the version answers 410 (or 404) everywhere.
 */
export function removedDocumentInfo(options: {
  runtime: LifecycleRuntime;
  name: string;
  status: number;
}): Record<string, unknown> {
  const { runtime, name } = options;
  const removed = runtime.verdict({ version: name, method: 'GET', path: '/' });
  if (!removed.removed) return {};
  const sunset = formatIsoInstant(removed.sunsetAt!);
  const replacement = removed.removed.extensions.replacement;
  return {
    'x-removed': true,
    'x-sunset': sunset,
    description: `REMOVED: ${name} was removed at its sunset date, ${sunset}. Every request to it answers ${options.status} with a problem body${replacement ? `; use ${String(replacement)} instead` : ''}. This document is kept for migration only.`,
  };
}
